package demo.web.route;

import demo.web.Handler;

/** Route binds a method and path to a handler. */
public class Route {
    private final String method;
    private final String path;
    private final Handler handler;

    public Route(String method, String path, Handler handler) {
        this.method = method;
        this.path = path;
        this.handler = handler;
    }

    public boolean matches(String method, String path) {
        return this.method.equals(method) && this.path.equals(path);
    }

    public Handler handler() {
        return handler;
    }
}
