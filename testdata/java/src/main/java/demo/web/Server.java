package demo.web;

import static demo.web.Response.Status.NOT_FOUND;

import demo.web.route.Route;
import demo.web.route.Routes;
import java.util.ArrayList;
import java.util.List;

/**
 * Server dispatches requests to the handlers registered for their path.
 * A server is itself a handler, so servers can be nested.
 */
public class Server extends BaseRouter implements Handler {
    public static final int DEFAULT_PORT = 4567;

    private boolean running;
    private Routes.Stats stats;

    /** Registers a handler for GET requests on a path. */
    public Server get(String path, Handler handler) {
        this.register("GET", path, handler);
        return this;
    }

    /** Dispatches a request to the matching route's handler. */
    @Override
    public void handle(Request req, Response res) throws Exception {
        Route r = routes.find(req.method(), req.path());
        if (r == null) {
            res.status(NOT_FOUND);
            return;
        }
        r.handler().handle(req, res);
        stats.hit();
    }

    public void start() {
        clear();
        running = true;
        stats = Routes.Stats.empty();
    }

    /** The names of the routes, for logging. */
    List<String> routeNames() {
        List<String> out = new ArrayList<>();
        out.add(String.valueOf(routes.size()));
        return out;
    }

    /** A handler that answers 404. */
    static Handler notFound() {
        return (req, res) -> res.status(Response.Status.NOT_FOUND);
    }
}
