package demo.web;

import java.util.HashMap;
import java.util.Map;

/** Request is an incoming HTTP request. */
public class Request {
    private final String method;
    private final String path;
    private final Map<String, String> headers = new HashMap<>();

    public Request(String method, String path) {
        this.method = method;
        this.path = path;
    }

    public String method() {
        return method;
    }

    public String path() {
        return path;
    }

    /** Returns the value of a header, or null. */
    public String header(String name) {
        return headers.get(name.toLowerCase());
    }
}
