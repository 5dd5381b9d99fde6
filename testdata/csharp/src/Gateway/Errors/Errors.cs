namespace Gateway.Errors
{
    public enum ErrorCode
    {
        Unknown,
        Unauthenticated,
        Unauthorized,
    }

    /// <summary>An error that stops the pipeline.</summary>
    public abstract class Error
    {
        protected Error(string message, ErrorCode code, int httpStatusCode)
        {
            Message = message;
            Code = code;
            HttpStatusCode = httpStatusCode;
        }

        public string Message { get; }

        public ErrorCode Code { get; }

        public int HttpStatusCode { get; }
    }

    public class ErrorSerializer
    {
        public string Serialize(Error error) => $"{error.Code}: {error.Message}";
    }
}

namespace Gateway.Errors.Auth
{
    /// <summary>The client did not prove who it is.</summary>
    public class UnauthenticatedError : Error
    {
        public UnauthenticatedError(string message)
            : base(message, ErrorCode.Unauthenticated, 401)
        {
        }
    }
}
