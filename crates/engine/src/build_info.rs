//! What this binary is and what it runs on: the version and build identity in the
//! `id name` line, and the `compiler` command's report (compiler, target,
//! processor features, the kernels chosen at run time).

use crate::eval::nnue::Kernel;

/// The crate version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The commit and its date (`6a120b83 2026-12-05`), `CHUHAN_BUILD_ID` when set at
/// build time, or `unknown build` outside a git checkout.
pub const BUILD_ID: &str = env!("CHUHAN_BUILD_ID");

/// Engine name for `id name`: the version and the build identity.
pub const ENGINE_NAME: &str = concat!(
    "Chuhan ",
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("CHUHAN_BUILD_ID"),
    ")"
);

/// How the rook and cannon lookups index their tables in this binary.
pub fn slider_indexing() -> &'static str {
    if cfg!(all(target_arch = "x86_64", target_feature = "bmi2")) {
        "pext (BMI2, compiled in)"
    } else {
        "multiply-shift (portable)"
    }
}

/// The processor features this process detected that matter to Chuhan.
pub fn detected_features() -> Vec<&'static str> {
    #[allow(unused_mut)]
    let mut found = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! probe {
            ($($f:tt),*) => {$(
                if std::arch::is_x86_feature_detected!($f) {
                    found.push($f);
                }
            )*};
        }
        probe!(
            "sse2", "ssse3", "sse4.1", "popcnt", "bmi2", "avx2", "avx512bw"
        );
    }
    #[cfg(target_arch = "aarch64")]
    {
        if std::arch::is_aarch64_feature_detected!("neon") {
            found.push("neon");
        }
        if std::arch::is_aarch64_feature_detected!("dotprod") {
            found.push("dotprod");
        }
    }
    found
}

/// The NNUE kernel line: the kernel and why it was chosen.
pub fn kernel_line() -> String {
    let chosen = Kernel::detect();
    let why = match std::env::var("CHUHAN_KERNEL") {
        Ok(asked) if Kernel::from_name(&asked) == Some(chosen) => {
            format!("CHUHAN_KERNEL={}", asked.trim())
        }
        Ok(asked) => format!(
            "CHUHAN_KERNEL={} not usable here; widest supported",
            asked.trim()
        ),
        Err(_) => "widest supported".into(),
    };
    format!("nnue kernel: {} ({why})", chosen.name())
}

/// The `compiler` report, one line each.
///
/// ```
/// let lines = chuhan_engine::build_info::report();
/// assert!(lines[0].starts_with("Chuhan "));
/// assert!(lines.iter().any(|l| l.starts_with("nnue kernel: ")));
/// ```
pub fn report() -> Vec<String> {
    vec![
        ENGINE_NAME.to_string(),
        format!(
            "compiled by {} for {} ({} profile)",
            env!("CHUHAN_RUSTC"),
            env!("CHUHAN_TARGET"),
            env!("CHUHAN_PROFILE")
        ),
        format!(
            "processor features detected: {}",
            detected_features().join(" ")
        ),
        kernel_line(),
        format!("slider tables indexed by: {}", slider_indexing()),
    ]
}
