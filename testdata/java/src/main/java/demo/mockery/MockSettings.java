package demo.mockery;

/** MockSettings holds how a mock answers and what it is called. */
public class MockSettings {
    private String name = "";

    public MockSettings name(String name) {
        this.name = name;
        return this;
    }

    public String getName() {
        return name;
    }
}
