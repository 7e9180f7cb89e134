//! A number as a student types it, for the keys that are numbers (a numeric entry
//! with a tolerance). Read generously but never by guessing: spaces between digit
//! groups (`1 000`, a thin space too) are dropped, a sign and an exponent are
//! allowed, and a comma is the decimal separator when it is the only separator
//! (`2,75`), as schools that write a decimal comma expect. `1,000` therefore reads
//! as one; a comma together with a point (`1,000.5`) is a thousands separator.
//! Anything else (`1/2`, `ten`, `12 cm`, `NaN`) is not a number and matches no
//! numeric key.

/// An interval of accepted numbers, both ends included.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NumberRange {
    pub low: f64,
    pub high: f64,
}

impl NumberRange {
    /// Whether `value` lies in the range, allowing for the rounding of decimal
    /// fractions in binary (so that `0.3` is `0.1 + 0.2`).
    pub fn contains(&self, value: f64) -> bool {
        let slack = |end: f64| 1e-9 * end.abs().max(1.0);
        value >= self.low - slack(self.low) && value <= self.high + slack(self.high)
    }
}

impl NumberRange {
    /// Whether some number of the range is written in at most `characters`
    /// characters of digits, a point and a minus (`9.8` for 9.76 to 9.86 in 3; not
    /// 6.02e23 in any): what a grid of that many rows can answer.
    pub fn written_within(&self, characters: usize) -> bool {
        let middle = (self.low + self.high) / 2.0;
        (0..characters).any(|decimals| {
            [middle, self.low, self.high].iter().any(|value| {
                let written = format!("{value:.decimals$}");
                written.chars().count() <= characters
                    && written.parse::<f64>().is_ok_and(|v| self.contains(v))
            })
        })
    }
}

/// The number typed in `answer`, if it is one.
pub fn read_number(answer: &str) -> Option<f64> {
    let compact: String = answer
        .trim()
        .chars()
        .filter(|c| !matches!(c, ' ' | '\u{a0}' | '\u{2009}' | '\u{202f}'))
        .map(|c| if c == '\u{2212}' { '-' } else { c })
        .collect();
    let plain = if compact.contains('.') {
        compact.replace(',', "")
    } else if compact.matches(',').count() == 1 {
        compact.replace(',', ".")
    } else {
        compact
    };
    let looks_numeric = plain
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E'));
    if !looks_numeric || !plain.chars().any(|c| c.is_ascii_digit()) {
        return None;
    }
    plain.parse::<f64>().ok().filter(|n| n.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_read_as_people_type_them() {
        assert_eq!(read_number(" 9.81 "), Some(9.81));
        assert_eq!(read_number("-2"), Some(-2.0));
        assert_eq!(read_number("\u{2212}2"), Some(-2.0));
        assert_eq!(read_number("+.5"), Some(0.5));
        assert_eq!(read_number("2,75"), Some(2.75));
        assert_eq!(read_number("1 000"), Some(1000.0));
        assert_eq!(read_number("1,000.5"), Some(1000.5));
        assert_eq!(read_number("6.02e23"), Some(6.02e23));
    }

    #[test]
    fn what_is_not_a_number_is_none() {
        for answer in [
            "", "ten", "1/2", "12 cm", "NaN", "inf", "1,2,3", "e", "--1", ".",
        ] {
            assert_eq!(read_number(answer), None, "{answer:?}");
        }
    }

    #[test]
    fn a_range_holds_its_ends_and_decimal_rounding() {
        let exact = NumberRange {
            low: 0.3,
            high: 0.3,
        };
        assert!(exact.contains(0.1 + 0.2));
        assert!(!exact.contains(0.31));
        let tolerance = NumberRange {
            low: 9.76,
            high: 9.86,
        };
        assert!(tolerance.contains(9.76) && tolerance.contains(9.86));
        assert!(!tolerance.contains(9.75) && !tolerance.contains(9.87));
    }

    #[test]
    fn a_range_is_written_within_so_many_characters_or_not() {
        let range = |low, high| NumberRange { low, high };
        assert!(range(9.76, 9.86).written_within(3), "9.8");
        assert!(range(-220.0, -190.0).written_within(4), "-205");
        assert!(!range(-220.0, -190.0).written_within(3));
        assert!(range(1961.0, 1961.0).written_within(6));
        assert!(!range(1234567.0, 1234567.0).written_within(6));
        assert!(!range(6.02e23, 6.02e23).written_within(6));
        assert!(range(0.1 + 0.2, 0.1 + 0.2).written_within(3), "0.3");
    }
}
