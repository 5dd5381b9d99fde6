using Gateway.Errors;

namespace Gateway.Middleware;

/// <summary>
/// Base class of the gateway's middlewares: gives each one a logger and a
/// way to stop the pipeline with an <see cref="Error"/>.
/// </summary>
public abstract class GatewayMiddleware
{
    protected GatewayMiddleware(IGatewayLogger logger)
    {
        Logger = logger;
        MiddlewareName = GetType().Name;
    }

    public IGatewayLogger Logger { get; }

    public string MiddlewareName { get; }

    /// <summary>Records an error on the context; later middlewares skip the request.</summary>
    /// <param name="context">The request being processed.</param>
    /// <param name="error">Why the pipeline stops.</param>
    protected void SetPipelineError(DownstreamContext context, Error error)
    {
        Logger.LogWarning($"{MiddlewareName} setting pipeline error {error.Code}: {error.Message}");
        context.Errors.Add(error);
    }
}

/// <summary>The next step of the pipeline.</summary>
public delegate Task GatewayRequestDelegate(DownstreamContext context);
