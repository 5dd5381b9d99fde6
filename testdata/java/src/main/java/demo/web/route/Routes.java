package demo.web.route;

import java.util.ArrayList;
import java.util.List;

/** Routes is the table of registered routes. */
public class Routes {
    private final List<Route> entries = new ArrayList<>();

    /** Adds a route to the table. */
    public void add(Route route) {
        entries.add(route);
    }

    /** Finds the first route matching the method and path, or null. */
    public Route find(String method, String path) {
        for (Route r : entries) {
            if (r.matches(method, path)) {
                return r;
            }
        }
        return null;
    }

    public void clear() {
        entries.clear();
    }

    public int size() {
        return entries.size();
    }

    /** Stats counts dispatched requests. */
    public static final class Stats {
        private int hits;

        public static Stats empty() {
            return new Stats();
        }

        public void hit() {
            hits++;
        }
    }
}
