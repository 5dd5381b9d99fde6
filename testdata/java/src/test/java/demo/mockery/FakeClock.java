package demo.mockery;

/** FakeClock is a clock the tests set by hand. */
public class FakeClock {
    private long now;

    public long now() {
        return now;
    }

    public void advance(long millis) {
        now += millis;
    }
}
