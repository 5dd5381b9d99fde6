using Microsoft.Extensions.Logging;

namespace Gateway.Logging
{
    /// <summary>The logger middlewares write to.</summary>
    public interface IGatewayLogger
    {
        void LogDebug(string message);

        void LogWarning(string message);
    }

    public interface IGatewayLoggerFactory
    {
        IGatewayLogger CreateLogger<T>();
    }

    /// <summary>Writes gateway messages to an ASP.NET Core logger.</summary>
    public class AspDotNetLogger : IGatewayLogger
    {
        private readonly ILogger _logger;

        public AspDotNetLogger(ILogger logger)
        {
            _logger = logger;
        }

        public void LogDebug(string message) => _logger.LogDebug(message);

        public void LogWarning(string message)
        {
            if (_logger.IsEnabled(LogLevel.Warning))
            {
                _logger.LogWarning(message);
            }
        }
    }

    public class AspDotNetLoggerFactory : IGatewayLoggerFactory
    {
        private readonly ILoggerFactory _factory;

        public AspDotNetLoggerFactory(ILoggerFactory factory)
        {
            _factory = factory;
        }

        public IGatewayLogger CreateLogger<T>()
        {
            var logger = _factory.CreateLogger<T>();
            return new AspDotNetLogger(logger);
        }
    }
}
