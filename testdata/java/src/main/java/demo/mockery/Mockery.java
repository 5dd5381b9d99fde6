package demo.mockery;

import demo.mockery.mock.MockMaker;

/** Mockery is the library's entry point: it makes mocks of any class. */
public final class Mockery {
    private Mockery() {}

    /** Makes a mock of the type with default settings. */
    public static <T> T mock(Class<T> type) {
        return mock(type, new MockSettings());
    }

    /** Makes a mock of the type with the given settings. */
    public static <T> T mock(Class<T> type, MockSettings settings) {
        return MockMaker.create(type, settings.name(type.getSimpleName()));
    }
}
