package demo.mockery.mock;

import demo.mockery.MockSettings;

/** MockMaker creates the proxy objects behind mocks. */
public class MockMaker {
    public static <T> T create(Class<T> type, MockSettings settings) {
        if (settings.getName().isEmpty()) {
            throw new IllegalArgumentException("a mock needs a name");
        }
        return null;
    }
}
