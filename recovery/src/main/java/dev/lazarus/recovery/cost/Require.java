package dev.lazarus.recovery.cost;

/** The argument checks of the cost model's inputs. */
final class Require {
    private Require() {
    }

    static void positive(String key, double value) {
        if (!(value > 0.0 && Double.isFinite(value))) {
            throw new IllegalArgumentException(key + " must be positive and finite: " + key + "=" + value);
        }
    }

    static void nonNegative(String key, double value) {
        if (!(value >= 0.0 && Double.isFinite(value))) {
            throw new IllegalArgumentException(key + " must be finite and >= 0: " + key + "=" + value);
        }
    }
}
