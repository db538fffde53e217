//! What the tags say: the year of a `Date`, and a tag's value unless it is unknown.

use crate::record::{is_unknown_value, Tag};

/// The year a `Date` value gives (see the module's documentation).
///
/// ```
/// use reversi_runs::archive::stats::year_of;
/// assert_eq!(year_of("2004.06.12"), Some(2004));
/// assert_eq!(year_of("2003.12.15_12:33:18.MST"), Some(2003));
/// assert_eq!(year_of("947375357"), Some(2000));
/// assert_eq!(year_of("????.??.??"), None);
/// assert_eq!(year_of("12.06.2004"), None);
/// ```
pub fn year_of(date: &str) -> Option<i32> {
    let date = date.trim();
    let digits = date.bytes().take_while(u8::is_ascii_digit).count();
    match digits {
        4 | 8 => date.get(..4)?.parse().ok().filter(|&y| y > 0),
        _ if digits >= 9 && digits == date.len() && digits <= 12 => {
            let seconds: i64 = date.parse().ok()?;
            Some(year_of_day(seconds.div_euclid(86_400)))
        }
        _ => None,
    }
}

/// The (proleptic Gregorian) year of a day counted from 1970-01-01.
fn year_of_day(days: i64) -> i32 {
    // Howard Hinnant's `civil_from_days`, the year only.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let year = year_of_era + era * 400 + i64::from(month_index >= 10);
    year.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

/// The value of the first tag named `name` (any case), unless it says nothing.
pub(super) fn known_tag<'a>(tags: &'a [Tag], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|t| t.name.eq_ignore_ascii_case(name))
        .map(|t| t.value.trim())
        .filter(|v| !is_unknown_value(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn years_from_dates() {
        assert_eq!(year_of("2021"), Some(2021));
        assert_eq!(year_of("20040612"), Some(2004));
        assert_eq!(year_of("940607137"), Some(1999));
        assert_eq!(year_of("0000"), None);
        assert_eq!(year_of(""), None);
        assert_eq!(year_of_day(0), 1970);
        assert_eq!(year_of_day(-1), 1969);
        assert_eq!(year_of_day(365 * 30 + 7), 2000);
    }
}
