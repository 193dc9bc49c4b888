//! The short fuzzing budget of `make test`: a few thousand inputs per target, no
//! panic allowed (hangs are `make fuzz`'s business: no wall-clock limits here).

use chuhan_fuzz::{Target, fuzz};

#[test]
fn every_parser_survives_a_short_fuzzing_budget() {
    for t in Target::ALL {
        let inputs = if t == Target::Protocol || t == Target::Fen {
            3000
        } else {
            1500
        };
        let r = fuzz(t, inputs, 20_261_202, None);
        assert_eq!(r.inputs, inputs, "{t:?}");
        assert!(
            r.crashes.is_empty(),
            "{t:?}: {} crashes, first: {} on {:?}",
            r.crashes.len(),
            r.crashes[0].message,
            String::from_utf8_lossy(&r.crashes[0].input)
        );
    }
}
