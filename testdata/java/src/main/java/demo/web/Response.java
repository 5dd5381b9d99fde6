package demo.web;

/** Response collects the status and body sent back. */
public class Response {
    private int status = 200;
    private final StringBuilder body = new StringBuilder();

    public void status(int code) {
        this.status = code;
    }

    public void status(Status s) {
        status(s.code());
    }

    public void body(String text) {
        body.append(text);
    }

    public String body() {
        return body.toString();
    }

    /** Status codes the server sends. */
    public enum Status {
        /** The request succeeded. */
        OK(200),
        NOT_FOUND(404);

        private final int code;

        Status(int code) {
            this.code = code;
        }

        public int code() {
            return code;
        }
    }
}
