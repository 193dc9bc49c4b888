//! [`Parameter`]: one tuned integer and its SPSA settings, and the OpenBench
//! parameter file that lists them, one a line:
//!
//! ```text
//! # name, type, default, min, max, c_end, r_end
//! RfpMargin, int, 120, 40, 300, 10, 0.002
//! ```
//!
//! `type` is always `int` (every engine option SPSA moves is an integer); `#` starts
//! a comment; blank lines are skipped; `r_end` may be left out ([`DEFAULT_R_END`]).

use serde::{Deserialize, Serialize};
use std::fmt;

/// The learning rate at the end of a run when a line gives none (OpenBench's
/// usual value).
pub const DEFAULT_R_END: f64 = 0.002;

/// The header comment written above the lines.
pub const HEADER: &str = "# name, type, default, min, max, c_end, r_end";

/// One parameter: its engine option name, its value (where tuning starts, or
/// what it found), its range and its schedule's end points.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Parameter {
    /// The engine option name (`setoption`).
    pub name: String,
    /// The value: the start of a run, the result of one.
    pub value: f64,
    /// Smallest value.
    pub min: i32,
    /// Largest value.
    pub max: i32,
    /// The perturbation at the end of the run, in the parameter's units.
    pub c_end: f64,
    /// The learning rate at the end of the run (`a_end = r_end · c_end²`).
    pub r_end: f64,
}

/// A line of a parameter file that does not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParameterError {
    /// The line number, from 1 (0: the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub why: String,
}

impl fmt::Display for ParameterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            f.write_str(&self.why)
        } else {
            write!(f, "line {}: {}", self.line, self.why)
        }
    }
}

impl std::error::Error for ParameterError {}

impl Parameter {
    /// The value rounded to the integer an engine is given.
    pub fn rounded(&self) -> i32 {
        round_into(self.value, self.min, self.max)
    }

    /// Checks the ranges: `min ≤ value ≤ max`, positive `c_end` and `r_end`, a
    /// name without commas.
    pub fn check(&self) -> Result<(), String> {
        let name = &self.name;
        if name.trim().is_empty() || name.contains(',') || name.trim() != name {
            return Err(format!("`{name}` is not a parameter name"));
        }
        if self.min > self.max || !(f64::from(self.min)..=f64::from(self.max)).contains(&self.value)
        {
            return Err(format!(
                "{name}: the value {} is not within {}..={}",
                self.value, self.min, self.max
            ));
        }
        if !(self.c_end.is_finite() && self.c_end > 0.0) {
            return Err(format!("{name}: c_end must be positive"));
        }
        if !(self.r_end.is_finite() && self.r_end > 0.0) {
            return Err(format!("{name}: r_end must be positive"));
        }
        Ok(())
    }

    /// The parameter as a line of the file (the value as an integer when it is one).
    pub fn line(&self) -> String {
        format!(
            "{}, int, {}, {}, {}, {}, {}",
            self.name, self.value, self.min, self.max, self.c_end, self.r_end
        )
    }
}

/// `x` rounded to the nearest integer (halves away from zero) within `min..=max`.
pub fn round_into(x: f64, min: i32, max: i32) -> i32 {
    (x.round() as i64).clamp(i64::from(min), i64::from(max)) as i32
}

/// Reads a parameter file; names must be unique and at least one parameter given.
///
/// ```
/// use chuhan_arena::spsa::parameter::parse;
/// let p = parse("# tuned\nRfpMargin, int, 120, 40, 300, 10\n").unwrap();
/// assert_eq!((p[0].name.as_str(), p[0].value, p[0].c_end, p[0].r_end), ("RfpMargin", 120.0, 10.0, 0.002));
/// assert!(parse("A, float, 0.5, 0, 1, 0.1, 0.002").is_err());
/// ```
pub fn parse(text: &str) -> Result<Vec<Parameter>, ParameterError> {
    let mut out: Vec<Parameter> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let err = |why: String| ParameterError { line: n + 1, why };
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if !(6..=7).contains(&fields.len()) {
            return Err(err(format!(
                "`{line}`: expected `name, int, default, min, max, c_end[, r_end]`"
            )));
        }
        if !fields[1].eq_ignore_ascii_case("int") {
            return Err(err(format!(
                "{}: type `{}`; only int parameters are tuned",
                fields[0], fields[1]
            )));
        }
        let number = |i: usize, what: &str| {
            fields[i]
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| {
                    err(format!(
                        "{}: {what} `{}` is not a number",
                        fields[0], fields[i]
                    ))
                })
        };
        let integer = |i: usize, what: &str| {
            fields[i].parse::<i32>().map_err(|_| {
                err(format!(
                    "{}: {what} `{}` is not an integer",
                    fields[0], fields[i]
                ))
            })
        };
        let p = Parameter {
            name: fields[0].to_string(),
            value: number(2, "default")?,
            min: integer(3, "min")?,
            max: integer(4, "max")?,
            c_end: number(5, "c_end")?,
            r_end: if fields.len() == 7 {
                number(6, "r_end")?
            } else {
                DEFAULT_R_END
            },
        };
        p.check().map_err(err)?;
        if out.iter().any(|q| q.name == p.name) {
            return Err(err(format!("{} is given twice", p.name)));
        }
        out.push(p);
    }
    if out.is_empty() {
        return Err(ParameterError {
            line: 0,
            why: "no parameters".into(),
        });
    }
    Ok(out)
}

/// The parameter file of `params`: the header comment, then one line each.
pub fn write(params: &[Parameter]) -> String {
    let mut s = String::from(HEADER);
    s.push('\n');
    for p in params {
        s.push_str(&p.line());
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &str, value: f64) -> Parameter {
        Parameter {
            name: name.into(),
            value,
            min: -50,
            max: 400,
            c_end: 7.5,
            r_end: 0.0025,
        }
    }

    #[test]
    fn the_format_round_trips() {
        let params = vec![param("RfpMargin", 120.0), param("LmrBase", -3.25)];
        let text = write(&params);
        assert!(text.starts_with(HEADER));
        assert!(
            text.contains("RfpMargin, int, 120, -50, 400, 7.5, 0.0025\n"),
            "{text}"
        );
        assert_eq!(parse(&text).unwrap(), params);
    }

    #[test]
    fn comments_blank_lines_and_the_default_r_end() {
        let p = parse("\n  # a comment\nA, int, 5, 0, 10, 1 # trailing\n\nB,INT,0,-4,4,0.5,0.01\n")
            .unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!((p[0].name.as_str(), p[0].r_end), ("A", DEFAULT_R_END));
        assert_eq!(
            (p[1].min, p[1].max, p[1].c_end, p[1].r_end),
            (-4, 4, 0.5, 0.01)
        );
    }

    #[test]
    fn bad_lines_are_named() {
        let line = |text: &str| parse(text).unwrap_err().line;
        assert_eq!(line("A, int, 5, 0, 10, 1\nB, int, 11, 0, 10, 1"), 2);
        assert_eq!(line("A, int, 5, 0, 10"), 1);
        assert_eq!(line("A, int, 5, 0, 10, 0"), 1);
        assert_eq!(line("A, int, 5, 0.5, 10, 1"), 1);
        assert_eq!(line("A, int, 5, 0, 10, 1\nA, int, 5, 0, 10, 1"), 2);
        assert_eq!(line("# nothing"), 0);
    }

    #[test]
    fn rounding_stays_in_range() {
        assert_eq!(round_into(2.5, 0, 10), 3);
        assert_eq!(round_into(-2.5, -10, 10), -3);
        assert_eq!(round_into(10.4, 0, 10), 10);
        assert_eq!(round_into(12.0, 0, 10), 10);
        assert_eq!(param("X", 99.6).rounded(), 100);
    }
}
