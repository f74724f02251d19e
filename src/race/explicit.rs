//! The race from one start written out as an explicit chain (for `export`). Faces that move
//! nobody are left out, as in the race's own chain: they change when the race ends, not who
//! wins it. Ends are labelled `swine_wins` or `butcher_wins`, and `over`.

use super::chain::{RaceChain, Spot};
use super::rules::{Rules, Setup};
use crate::engine::explicit::ExplicitChain;
use crate::engine::explicit::explore::explore;
use crate::error::Error;

pub fn chain(rules: &Rules, setup: &Setup) -> Result<ExplicitChain, Error> {
    let race = RaceChain::new(rules, setup.length, false);
    let labels = |spot: Spot| match spot.winner(setup.length) {
        Some(side) => vec![format!("{}_wins", side.name()), "over".to_string()],
        None => Vec::new(),
    };
    // A race of at most 200 squares has a few thousand spots: written out at once, no stop.
    let no_stop = crate::Cancel::new();
    let (chain, _) = explore(&race, &[Spot::start(setup)], false, u32::MAX as u64, &no_stop, labels)
        .map_err(|e| Error::Invalid(format!("cannot write the race out: {e}")))?;
    Ok(chain)
}
