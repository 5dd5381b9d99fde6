namespace Gateway.Configuration;

/// <summary>How a route authenticates its clients.</summary>
public record AuthenticationOptions(string Scheme, IReadOnlyList<string> AllowedScopes);

/// <summary>A route of the gateway: where requests go and what they need.</summary>
public class DownstreamRoute
{
    public DownstreamRoute(string upstreamPath, AuthenticationOptions authenticationOptions)
    {
        UpstreamPath = upstreamPath;
        AuthenticationOptions = authenticationOptions;
    }

    public string UpstreamPath { get; }

    public AuthenticationOptions AuthenticationOptions { get; }

    public bool IsAuthenticated => !string.IsNullOrEmpty(AuthenticationOptions?.Scheme);

    public string Name() => UpstreamPath;
}
