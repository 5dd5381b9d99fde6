using System.Text.Json;
using Gateway.Configuration;
using Gateway.Errors.Auth;
using Gateway.Middleware;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Builder;

namespace Gateway.Authentication
{
    /// <summary>
    /// Authenticates downstream requests whose route asks for it, with the
    /// <see cref="IAuthenticationHandler"/> of the route's scheme.
    /// </summary>
    public sealed class AuthenticationMiddleware : GatewayMiddleware
    {
        private readonly GatewayRequestDelegate _next;
        private readonly IAuthenticationHandler _handler;

        public AuthenticationMiddleware(GatewayRequestDelegate next, IAuthenticationHandler handler, IGatewayLoggerFactory loggerFactory)
            : base(loggerFactory.CreateLogger<AuthenticationMiddleware>())
        {
            _next = next;
            _handler = handler;
        }

        public async Task Invoke(DownstreamContext context)
        {
            var route = context.Route;
            if (!IsAuthenticatedRoute(route))
            {
                Logger.LogDebug($"No authentication is required for {route.Name()}");
                await _next.Invoke(context);
                return;
            }

            var authenticated = await _handler.AuthenticateAsync(context, route.AuthenticationOptions.Scheme);
            if (!authenticated)
            {
                var error = new UnauthenticatedError($"Request for {route.Name()} was not authenticated");
                SetPipelineError(context, error);
                return;
            }

            await _next(context);
        }

        private static bool IsAuthenticatedRoute(DownstreamRoute route) => route != null && route.IsAuthenticated;
    }

    /// <summary>Checks a request's credentials for one scheme.</summary>
    public interface IAuthenticationHandler
    {
        Task<bool> AuthenticateAsync(DownstreamContext context, string scheme);
    }

    public class SchemeAuthenticationHandler : IAuthenticationHandler
    {
        public async Task<bool> AuthenticateAsync(DownstreamContext context, string scheme)
        {
            var result = await context.HttpContext.AuthenticateAsync(scheme);
            if (result.Succeeded)
            {
                var claims = JsonSerializer.Serialize(result.Principal.Claims.Select(c => c.Type));
                context.HttpContext.Items["claims"] = claims;
            }

            return result.Succeeded;
        }
    }

    public static class AuthenticationMiddlewareExtensions
    {
        public static IApplicationBuilder UseGatewayAuthentication(this IApplicationBuilder builder)
            => builder.UseMiddleware<AuthenticationMiddleware>();

        public static IApplicationBuilder UseGateway(this IApplicationBuilder app)
        {
            app.UseGatewayAuthentication();
            return app;
        }
    }
}
