package demo.web;

import demo.web.route.Route;
import demo.web.route.Routes;

/**
 * BaseRouter keeps the route table shared by servers.
 */
public abstract class BaseRouter {
    protected final Routes routes = new Routes();

    protected void register(String method, String path, Handler handler) {
        routes.add(new Route(method, path, handler));
    }

    /** Removes every route. */
    public void clear() {
        routes.clear();
    }
}
