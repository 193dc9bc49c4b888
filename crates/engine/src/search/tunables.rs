//! The search parameters a tuner may move: each is declared once, in
//! [`crate::search::params`], with its default, range and SPSA step, and read
//! through an accessor of the same name in lower case (`params::rfp_margin()`).
//!
//! In an ordinary build an accessor is its constant, so the release binary searches
//! exactly as if the values were written in place. Built with the cargo feature
//! `tune` (`make tune-build`), every tunable is also an engine option of its own
//! name (UCI `setoption name RfpMargin value 120`, UCCI `setoption RfpMargin 120`),
//! and [`all`] is the parameter set `chuhan spsa --list` prints for a tuner. A value
//! set while a search runs takes effect at once in every thread: set them before
//! `go`, as tuners do.

/// One tunable search parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tunable {
    /// Its option name (CamelCase, as tuners and GUIs show it).
    pub name: &'static str,
    /// The value the release build searches with.
    pub default: i32,
    /// Smallest value it may take.
    pub min: i32,
    /// Largest value it may take.
    pub max: i32,
    /// SPSA's perturbation at the end of a run (`c_end`), in the parameter's units.
    pub step: i32,
}

/// Every tunable, in declaration order.
pub fn all() -> &'static [Tunable] {
    crate::search::params::TUNABLES
}

/// The tunable called `name` (compared ignoring case, spaces, `_` and `-`).
///
/// ```
/// use chuhan_engine::search::tunables::find;
/// assert_eq!(find("rfp_margin").unwrap().name, "RfpMargin");
/// assert!(find("NoSuchParameter").is_none());
/// ```
pub fn find(name: &str) -> Option<&'static Tunable> {
    let n = normalize(name);
    all().iter().find(|t| normalize(t.name) == n)
}

/// Lower case without spaces, `_` or `-` (as engine option names are compared).
fn normalize(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Sets the tunable called `name` for every search of this process (feature
/// `tune` only).
#[cfg(feature = "tune")]
pub fn set(name: &str, value: i32) -> Result<(), String> {
    let index = all()
        .iter()
        .position(|t| Some(t) == find(name))
        .ok_or_else(|| format!("no tunable called {name}"))?;
    let t = all()[index];
    if !(t.min..=t.max).contains(&value) {
        return Err(format!(
            "{} needs an integer from {} to {}, not {value}",
            t.name, t.min, t.max
        ));
    }
    crate::search::params::store(index, value);
    Ok(())
}

/// Declares the tunables: for each, an accessor `name() -> i32` (the constant, or
/// the value set under the feature `tune`), and the table [`all`] returns.
macro_rules! tunables {
    ($(
        $(#[$doc:meta])*
        $get:ident, $name:literal = $default:literal, $min:literal ..= $max:literal, step $step:literal;
    )*) => {
        $(
            $(#[$doc])*
            #[inline(always)]
            pub fn $get() -> i32 {
                #[cfg(feature = "tune")]
                {
                    cells::$get.load(std::sync::atomic::Ordering::Relaxed)
                }
                #[cfg(not(feature = "tune"))]
                {
                    $default
                }
            }
        )*

        /// The current values of the tunables (feature `tune`).
        #[cfg(feature = "tune")]
        #[allow(non_upper_case_globals)]
        mod cells {
            use std::sync::atomic::AtomicI32;
            $(pub(super) static $get: AtomicI32 = AtomicI32::new($default);)*
        }

        /// Every tunable, in declaration order.
        pub(crate) const TUNABLES: &[crate::search::tunables::Tunable] = &[$(
            crate::search::tunables::Tunable {
                name: $name,
                default: $default,
                min: $min,
                max: $max,
                step: $step,
            },
        )*];

        /// Sets tunable `index` of [`TUNABLES`] (feature `tune`).
        #[cfg(feature = "tune")]
        pub(crate) fn store(index: usize, value: i32) {
            let cells = [$(&cells::$get),*];
            cells[index].store(value, std::sync::atomic::Ordering::Relaxed);
        }
    };
}
pub(crate) use tunables;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tunable_is_named_once_and_its_default_lies_in_its_range() {
        let mut names: Vec<String> = all().iter().map(|t| normalize(t.name)).collect();
        assert!(names.len() >= 15, "{} tunables", names.len());
        for t in all() {
            assert!(
                t.min < t.max && (t.min..=t.max).contains(&t.default),
                "{t:?}"
            );
            assert!(t.step > 0 && t.step <= t.max - t.min, "{t:?}");
        }
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all().len());
    }

    #[cfg(feature = "tune")]
    #[test]
    fn set_moves_the_accessor_and_refuses_values_out_of_range() {
        use crate::search::params;
        let t = *find("QsDeltaMargin").unwrap();
        set("qs_delta_margin", t.default + 1).unwrap();
        assert_eq!(params::qs_delta_margin(), t.default + 1);
        assert!(set("QsDeltaMargin", t.max + 1).is_err());
        assert!(set("NoSuch", 1).is_err());
        set("QsDeltaMargin", t.default).unwrap();
        assert_eq!(params::qs_delta_margin(), t.default);
    }
}
