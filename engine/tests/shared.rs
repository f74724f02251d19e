//! A run shared by several processes, played by threads meeting in memory (`InMemory`):
//! every process returns what one process alone returns, in both modes, whatever the number
//! of processes; each layer's parts add up to the whole layer; and a failure in one process
//! stops all of them with its error.

mod toys;

use pegchain_engine::{Across, Cancel, EngineError, Exchange, InMemory, Layer, Mode, Options, propagate};
use std::collections::BTreeMap;
use toys::{Evening, Frog, Gambler, Purse};

const GAMBLER: Gambler = Gambler { up: 2, down: 3, bets: 40 };

fn purse_code(p: Purse) -> u64 {
    (u64::from(p.money) << 32) | u64::from(p.left)
}

fn purse_of(c: u64) -> Option<Purse> {
    Some(Purse { money: (c >> 32) as u32, left: c as u32 })
}

fn evening_code(e: &Evening) -> u64 {
    match *e {
        Evening::Ruined(t) => u64::from(t),
        Evening::Solvent(m) => (1 << 32) | u64::from(m),
    }
}

fn evening_of(c: u64) -> Option<Evening> {
    Some(if c >> 32 == 0 { Evening::Ruined(c as u32) } else { Evening::Solvent(c as u32) })
}

fn across(exchange: &dyn Exchange) -> Across<'_, Purse, Evening> {
    Across {
        exchange,
        state_code: purse_code,
        state_of: purse_of,
        key_code: evening_code,
        key_of: evening_of,
    }
}

/// The gambler from 20 units with 40 bets, on `processes` threads: each thread's result and
/// the states of each layer, added up over the processes.
type Outcome = (Result<BTreeMap<Evening, rug::Rational>, EngineError>, Vec<(u32, u64)>);

fn gambler_on(processes: usize, mode: Mode, cancel_one: bool) -> Vec<Outcome> {
    let start = Purse { money: 20, left: 40 };
    InMemory::run(processes, |exchange| {
        let cancel = Cancel::new();
        if cancel_one && exchange.me() == processes - 1 {
            cancel.cancel();
        }
        let mut layers = Vec::new();
        let mut on_layer = |l: &Layer<'_, Purse>| {
            layers.push((l.rank, l.total(&[l.states.len() as u64])[0]));
            Ok(())
        };
        let options = Options {
            on_layer: Some(&mut on_layer),
            cancel: Some(&cancel),
            across: Some(across(&exchange)),
            ..Options::default()
        };
        let result = propagate(&GAMBLER, start, mode, |s| GAMBLER.end(s), options);
        (result, layers)
    })
}

#[test]
fn every_process_returns_what_one_process_alone_returns() {
    for mode in [Mode::Probability, Mode::Paths] {
        let alone =
            propagate(&GAMBLER, Purse { money: 20, left: 40 }, mode, |s| GAMBLER.end(s), Options::default())
                .unwrap();
        if mode == Mode::Probability {
            assert_eq!(alone.values().sum::<rug::Rational>(), 1);
        }
        let (_, one_layers) = gambler_on(1, mode, false).remove(0);
        // 41 layers, from 1 state to 40 (the purses still playing) plus the ruined.
        assert_eq!(one_layers.len(), 41);
        assert_eq!(one_layers[0], (40, 1));
        for processes in [1, 2, 3, 4] {
            for (result, layers) in gambler_on(processes, mode, false) {
                assert_eq!(result.as_ref(), Ok(&alone), "{processes} processes, {mode:?}");
                assert_eq!(layers, one_layers, "{processes} processes: the parts add up to each layer");
            }
        }
    }
}

#[test]
fn a_failure_in_one_process_stops_every_process_with_its_error() {
    for processes in [2, 3] {
        for (result, layers) in gambler_on(processes, Mode::Probability, true) {
            assert_eq!(result, Err(EngineError::Cancelled { finished_layers: 0, rank: 40 }));
            assert!(layers.is_empty());
        }
    }
}

#[test]
fn moves_that_skip_ranks_meet_at_their_owner_across_processes() {
    fn code(s: u32) -> u64 {
        u64::from(s)
    }
    fn key(k: &u32) -> u64 {
        u64::from(*k)
    }
    fn back(c: u64) -> Option<u32> {
        u32::try_from(c).ok()
    }
    for mode in [Mode::Probability, Mode::Paths] {
        let alone = propagate(&Frog, 61, mode, |s| s, Options::default()).unwrap();
        for processes in [2, 4] {
            let runs = InMemory::run(processes, |exchange| {
                let across = Across {
                    exchange: &exchange,
                    state_code: code,
                    state_of: back,
                    key_code: key,
                    key_of: back,
                };
                propagate(&Frog, 61, mode, |s| s, Options { across: Some(across), ..Options::default() })
            });
            for run in runs {
                assert_eq!(run.as_ref(), Ok(&alone), "{processes} processes, {mode:?}");
            }
        }
    }
}
