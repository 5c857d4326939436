package dev.lockscope.analysis.bottle;

import java.math.BigInteger;

/** An exact fraction in lowest terms with a positive denominator, so that Eq. 1 and 2 are computed without rounding. */
public final class Rational implements Comparable<Rational> {
    public static final Rational ZERO = new Rational(BigInteger.ZERO, BigInteger.ONE);
    public static final Rational ONE = new Rational(BigInteger.ONE, BigInteger.ONE);

    private final BigInteger num;
    private final BigInteger den;

    private Rational(BigInteger num, BigInteger den) {
        this.num = num;
        this.den = den;
    }

    public static Rational of(long n) {
        return new Rational(BigInteger.valueOf(n), BigInteger.ONE);
    }

    public static Rational of(long num, long den) {
        return of(BigInteger.valueOf(num), BigInteger.valueOf(den));
    }

    public static Rational of(BigInteger num, BigInteger den) {
        if (den.signum() == 0) {
            throw new ArithmeticException("zero denominator");
        }
        if (den.signum() < 0) {
            num = num.negate();
            den = den.negate();
        }
        BigInteger g = num.gcd(den);
        if (!g.equals(BigInteger.ONE) && g.signum() != 0) {
            num = num.divide(g);
            den = den.divide(g);
        }
        return new Rational(num, num.signum() == 0 ? BigInteger.ONE : den);
    }

    public Rational plus(Rational o) {
        if (den.equals(o.den)) {
            return of(num.add(o.num), den);
        }
        return of(num.multiply(o.den).add(o.num.multiply(den)), den.multiply(o.den));
    }

    public Rational times(Rational o) {
        return of(num.multiply(o.num), den.multiply(o.den));
    }

    public Rational dividedBy(Rational o) {
        return of(num.multiply(o.den), den.multiply(o.num));
    }

    public boolean isZero() {
        return num.signum() == 0;
    }

    public double doubleValue() {
        return new java.math.BigDecimal(num).divide(new java.math.BigDecimal(den), java.math.MathContext.DECIMAL64)
                .doubleValue();
    }

    /** Rounded to the nearest integer (for nanosecond figures in reports). */
    public long roundedLong() {
        BigInteger[] qr = num.multiply(BigInteger.TWO).add(den).divideAndRemainder(den.multiply(BigInteger.TWO));
        BigInteger q = qr[0];
        if (qr[1].signum() < 0) {
            q = q.subtract(BigInteger.ONE);
        }
        return q.longValueExact();
    }

    @Override
    public int compareTo(Rational o) {
        return num.multiply(o.den).compareTo(o.num.multiply(den));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Rational r && num.equals(r.num) && den.equals(r.den);
    }

    @Override
    public int hashCode() {
        return num.hashCode() * 31 + den.hashCode();
    }

    @Override
    public String toString() {
        return den.equals(BigInteger.ONE) ? num.toString() : num + "/" + den;
    }
}
