using Gateway.Configuration;
using Gateway.Errors;
using Microsoft.AspNetCore.Http;

namespace Gateway.Middleware;

/// <summary>The state of one request as it goes down the pipeline.</summary>
public class DownstreamContext
{
    public DownstreamContext(HttpContext httpContext)
    {
        HttpContext = httpContext;
        Errors = new List<Error>();
    }

    public HttpContext HttpContext { get; }

    public DownstreamRoute Route { get; set; }

    public List<Error> Errors { get; }

    public bool IsError => Errors.Count > 0;
}
