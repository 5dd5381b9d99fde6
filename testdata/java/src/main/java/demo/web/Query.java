package demo.web;

/** Query builds a lookup step by step; each step returns the query. */
public class Query {
    private String path = "";
    private int limit = 1;

    public static Query of(String path) {
        Query q = new Query();
        q.path = path;
        return q;
    }

    public Query limit(int n) {
        this.limit = n;
        return this;
    }

    public Query verbose() {
        return this;
    }

    public String run() {
        return path + limit;
    }

    /** lookup chains the builder: each call is on what the one before returned. */
    public static int lookup(String path) {
        String text = Query.of(path).limit(2).verbose().run();
        return text.length();
    }
}

/** Job has methods named as Query's: only the receiver's type tells which one a call means. */
class Job {
    Job limit(int n) {
        return this;
    }

    String run() {
        return "";
    }

    int length() {
        return 0;
    }
}
