package demo.mockery;

import static org.junit.Assert.assertNull;

import org.junit.Test;

public class MockeryTest {
    /** A store the test answers itself. */
    static class StubStore {
        String get(String key) {
            return key;
        }
    }

    @Test
    public void mocksAnInterface() {
        FakeClock clock = new FakeClock();
        clock.advance(5);
        assertNull(Mockery.mock(Runnable.class));
        new StubStore().get("a");
    }
}
