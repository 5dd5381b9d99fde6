namespace Gateway.Configuration;

/// <summary>Builds a DownstreamRoute step by step.</summary>
public class DownstreamRouteBuilder
{
    private string _upstreamPath = "/";
    private string _scheme = "";

    public DownstreamRouteBuilder WithUpstreamPath(string path)
    {
        _upstreamPath = path;
        return this;
    }

    public DownstreamRouteBuilder WithScheme(string scheme)
    {
        _scheme = scheme;
        return this;
    }

    public DownstreamRoute Build() => new DownstreamRoute(_upstreamPath, new AuthenticationOptions(_scheme, new List<string>()));
}

/// <summary>Builds the table of routes; its steps share names with the route builder's.</summary>
public class RouteTableBuilder
{
    private readonly List<DownstreamRoute> _routes = new List<DownstreamRoute>();

    public RouteTableBuilder WithScheme(string scheme) => this;

    public List<DownstreamRoute> Build() => _routes;
}

public static class DefaultRoutes
{
    /// <summary>The name of an authenticated route to path.</summary>
    public static string SecureName(string path) =>
        new DownstreamRouteBuilder().WithUpstreamPath(path).WithScheme("Bearer").Build().Name();
}
