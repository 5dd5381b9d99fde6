using Gateway.Authentication;
using Gateway.Configuration;
using Gateway.Logging;
using Gateway.Middleware;
using Microsoft.AspNetCore.Http;
using Moq;
using Xunit;

namespace Gateway.UnitTests.Authentication;

public class AuthenticationMiddlewareTests
{
    private readonly Mock<IAuthenticationHandler> _handler = new();
    private readonly Mock<IGatewayLoggerFactory> _loggerFactory = new();
    private readonly DownstreamContext _context = new(new DefaultHttpContext());
    private readonly AuthenticationMiddleware _middleware;
    private bool _nextCalled;

    public AuthenticationMiddlewareTests()
    {
        _loggerFactory.Setup(f => f.CreateLogger<AuthenticationMiddleware>()).Returns(new Mock<IGatewayLogger>().Object);
        _middleware = new AuthenticationMiddleware(ctx =>
        {
            _nextCalled = true;
            return Task.CompletedTask;
        }, _handler.Object, _loggerFactory.Object);
    }

    [Fact]
    public async Task Should_call_next_middleware_when_route_is_not_authenticated()
    {
        _context.Route = new DownstreamRoute("/products", new AuthenticationOptions(null, new List<string>()));
        await WhenICallTheMiddleware();
        Assert.True(_nextCalled);
    }

    [Fact]
    public async Task Should_set_pipeline_error_when_handler_rejects()
    {
        GivenTheRouteRequires("Bearer");
        _handler.Setup(h => h.AuthenticateAsync(_context, "Bearer")).ReturnsAsync(false);
        await _middleware.Invoke(_context);
        Assert.True(_context.IsError);
    }

    private void GivenTheRouteRequires(string scheme) =>
        _context.Route = new DownstreamRoute("/orders", new AuthenticationOptions(scheme, new[] { "orders.read" }));

    private Task WhenICallTheMiddleware() => _middleware.Invoke(_context);
}
