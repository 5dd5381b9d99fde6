package demo.web;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class ServerTest {
    private Server server;

    private Server newServer() {
        server = new Server();
        server.start();
        return server;
    }

    @Test
    public void dispatchesToTheRegisteredHandler() throws Exception {
        Server s = newServer();
        s.get("/hello", (req, res) -> res.body("hi"));
        Response res = new Response();
        s.handle(new Request("GET", "/hello"), res);
        assertEquals("hi", res.body());
    }

    @Test
    public void testUnknownPathIsNotFound() throws Exception {
        Response res = new Response();
        newServer().handle(new Request("GET", "/nope"), res);
    }
}
