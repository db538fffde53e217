//! The decimal numbers GGF and SGF read and write, and integers written in decimal.

/// A finite decimal number (`+18.000`, `-2.5`, `.5`).
pub(crate) fn parse_number(text: &str) -> Option<f64> {
    let ok = text
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '+' | '-' | '.'))
        && text.chars().any(|c| c.is_ascii_digit());
    text.parse::<f64>().ok().filter(|x| ok && x.is_finite())
}

/// `x` with `decimals` decimals when that is exact, else its shortest exact form.
pub(crate) fn format_number(x: f64, decimals: usize, sign: bool) -> String {
    let fixed = if sign {
        format!("{x:+.decimals$}")
    } else {
        format!("{x:.decimals$}")
    };
    if fixed.parse::<f64>() == Ok(x) {
        fixed
    } else if sign {
        format!("{x:+}")
    } else {
        format!("{x}")
    }
}

/// Room for any `usize` in decimal.
pub(crate) type DecimalDigits = [u8; 20];

/// `n` in decimal, written into the end of `digits` (no formatting machinery: writers and
/// readers call this for every number of every game).
pub(crate) fn decimal(n: usize, digits: &mut DecimalDigits) -> &str {
    let mut start = digits.len();
    let mut n = n;
    loop {
        start -= 1;
        digits[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // Only ASCII digits were written.
    std::str::from_utf8(&digits[start..]).unwrap_or_default()
}

/// Appends `n` in decimal to `out`.
pub(crate) fn push_decimal(out: &mut String, n: usize) {
    out.push_str(decimal(n, &mut [0; 20]));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_in_decimal() {
        for n in [0, 7, 10, 99, 100, 65_535, 1 << 40, usize::MAX] {
            assert_eq!(decimal(n, &mut [0; 20]), n.to_string());
            let mut out = String::from("x");
            push_decimal(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
    }

    #[test]
    fn numbers_keep_their_value() {
        assert_eq!(format_number(2.0, 2, false), "2.00");
        assert_eq!(format_number(-22.87, 3, true), "-22.870");
        assert_eq!(format_number(0.001234, 2, false), "0.001234");
        assert_eq!(parse_number("inf"), None);
        assert_eq!(parse_number("+18.000"), Some(18.0));
    }
}
