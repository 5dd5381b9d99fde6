package demo.web;

/**
 * Handler answers one request.
 */
@FunctionalInterface
public interface Handler {
    /**
     * Handles the request by writing to the response.
     *
     * @param req the request
     * @param res the response
     */
    void handle(Request req, Response res) throws Exception;
}
