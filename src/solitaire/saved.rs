//! Long runs saved as they go, so that a stopped run goes on and ends as if it had never
//! stopped. What run the bytes belong to is the caller's to record.
//!
//! - An exact evaluation (`exact`, `count`) between two layers: the starts finished so far
//!   and the engine's state in the start under way. One JSON line (the finished starts and
//!   the positions counted so far in the start under way), then the engine's own encoding
//!   of its state (see `engine::RunState::encode`).
//! - The same evaluation while the whole-group method counts the positions of a start that
//!   cannot end with one peg, before any engine runs (an hour and more on the European board):
//!   the starts counted whole, and in the JSON line the layers counted so far of the start
//!   under way, then that start's last layer of classes as little-endian words
//!   (`solitaire::whole_group::reach_counts`).
//! - A search for solutions (`solve`): the search's state and the solutions shown so far.
//!   One JSON line, then the positions known to fail as little-endian words.

use crate::engine::RunState;
use crate::error::Error;
use crate::solitaire::chain::End;
use crate::solitaire::exact::Positions;
use crate::solitaire::pegs::Pegs;
use crate::solitaire::solve::SearchState;
use rug::Rational;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A start evaluated whole: its end distribution (finish holes on raw holes) and positions.
#[derive(Clone, Debug)]
pub struct Finished {
    pub hole: u8,
    pub ends: BTreeMap<End, Rational>,
    pub positions: Positions,
}

/// The start under way: its hole, the positions of its finished layers, the engine's state.
pub struct UnderWay {
    pub hole: u8,
    pub positions: Positions,
    pub run: RunState<Pegs, End>,
}

/// The positions of a start being counted by the whole group: those of its layers counted
/// so far, the last of them given as its classes (each a word of `reach_counts`).
pub struct Counting {
    pub hole: u8,
    pub positions: Positions,
    pub layer: Vec<u64>,
}

/// An evaluation between two layers.
#[derive(Default)]
pub struct Saved {
    pub finished: Vec<Finished>,
    pub under_way: Option<UnderWay>,
    /// Starts whose positions the whole group's counting pass found, not yet evaluated.
    pub counted: Vec<(u8, Positions)>,
    /// The start the counting pass was counting.
    pub counting: Option<Counting>,
}

/// The JSON line: exact values as "p/q" strings, ends by their codes. A line without the
/// counting pass's fields (the saves of earlier versions) reads as one with none.
#[derive(Serialize, Deserialize)]
struct Line {
    finished: Vec<FinishedLine>,
    under_way: Option<(u8, Positions)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    counted: Vec<(u8, Positions)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    counting: Option<(u8, Positions)>,
}

#[derive(Serialize, Deserialize)]
struct FinishedLine {
    hole: u8,
    ends: Vec<(u64, String)>,
    positions: Positions,
}

/// What a saved evaluation holds for one start.
pub enum Resumed {
    Finished(Finished),
    /// Where to go on from, if the start was under way: the positions counted so far and
    /// the engine's state (none: from the start).
    GoOn(Option<(Positions, RunState<Pegs, End>)>),
}

impl Saved {
    /// Nothing saved: a run not resumed, or resumed from a save of nothing.
    pub fn is_empty(&self) -> bool {
        self.finished.is_empty()
            && self.under_way.is_none()
            && self.counted.is_empty()
            && self.counting.is_none()
    }

    /// Whether the start `hole` was evaluated whole.
    pub fn is_finished(&self, hole: u8) -> bool {
        self.finished.iter().any(|f| f.hole == hole)
    }

    /// What this evaluation holds for the start `hole` (taken out of it).
    pub fn take(&mut self, hole: u8) -> Resumed {
        if let Some(i) = self.finished.iter().position(|f| f.hole == hole) {
            return Resumed::Finished(self.finished.swap_remove(i));
        }
        match self.under_way.take() {
            Some(u) if u.hole == hole => Resumed::GoOn(Some((u.positions, u.run))),
            other => {
                self.under_way = other;
                Resumed::GoOn(None)
            }
        }
    }

    /// The bytes of this evaluation (the starts `finished`, those `counted` by the
    /// whole group that wait, the start `under_way`), to be written whole; refused (not
    /// aborted) when memory cannot hold them.
    pub fn encode(
        finished: &[Finished],
        counted: &[(u8, Positions)],
        under_way: Option<(u8, &Positions, &RunState<Pegs, End>)>,
    ) -> Result<Vec<u8>, Error> {
        let mut line = Line::of(finished, counted);
        line.under_way = under_way.map(|(hole, positions, _)| (hole, positions.clone()));
        let mut bytes = line.bytes();
        if let Some((_, _, run)) = under_way {
            run.encode_into(&mut bytes, |p| p.0, End::code)
                .map_err(|e| Error::from_engine(e, |pegs| format!("the layer with {pegs} pegs"), false))?;
        }
        Ok(bytes)
    }

    /// The bytes of this evaluation while the counting pass counts `hole`'s positions
    /// (`positions` so far, the last layer's classes `layer`), after the starts `counted`;
    /// refused (not aborted) when memory cannot hold them.
    pub fn encode_counting(
        finished: &[Finished],
        counted: &[(u8, Positions)],
        (hole, positions, layer): (u8, &Positions, &[u64]),
    ) -> Result<Vec<u8>, Error> {
        let mut line = Line::of(finished, counted);
        line.counting = Some((hole, positions.clone()));
        let mut bytes = line.bytes();
        let more = 8 * layer.len();
        bytes.try_reserve_exact(more).map_err(|_| Error::AllocationFailed { bytes: more as u64 })?;
        put_words(&mut bytes, layer);
        Ok(bytes)
    }

    /// The evaluation `encode` wrote for a board of `holes`, or what is wrong with the bytes,
    /// in words. Its checksum catches damage, not an edit resealed: so every saved position is
    /// checked to lie on the board, which the engine's tables take for granted.
    pub fn decode(bytes: &[u8], holes: Pegs) -> Result<Saved, Error> {
        let broken = |why: &str| Error::Invalid(format!("it is not a whole saved evaluation: {why}"));
        let split = bytes.iter().position(|&b| b == b'\n').ok_or_else(|| broken("it is cut short"))?;
        let line: Line =
            serde_json::from_slice(&bytes[..split]).map_err(|_| broken("its summary is malformed"))?;
        let mut finished = Vec::new();
        for f in line.finished {
            let mut ends = BTreeMap::new();
            for (code, value) in f.ends {
                let end = End::of_code(code).ok_or_else(|| broken("it names an end no board has"))?;
                let value: Rational = value.parse().map_err(|_| broken("it holds a malformed fraction"))?;
                ends.insert(end, value);
            }
            finished.push(Finished { hole: f.hole, ends, positions: f.positions });
        }
        let rest = &bytes[split + 1..];
        let (mut under_way, mut counting) = (None, None);
        match (line.under_way, line.counting) {
            (Some(_), Some(_)) => return Err(broken("it holds two starts under way")),
            (Some((hole, positions)), None) => {
                let run =
                    RunState::decode(rest, |w| holes.contains_all(Pegs(w)).then_some(Pegs(w)), End::of_code)
                        .map_err(|why| broken(&why))?;
                under_way = Some(UnderWay { hole, positions, run });
            }
            (None, Some((hole, positions))) => {
                // A count is saved with the layer it goes on from, never an empty one.
                let layer = words_of(rest).filter(|l| !l.is_empty() && !positions.by_layer.is_empty());
                let layer = layer.ok_or_else(|| broken("it is cut short"))?;
                counting = Some(Counting { hole, positions, layer });
            }
            (None, None) if rest.is_empty() => {}
            (None, None) => return Err(broken("it has bytes after its end")),
        }
        Ok(Saved { finished, under_way, counted: line.counted, counting })
    }
}

impl Line {
    /// A line with the starts `finished` and `counted`, and nothing under way.
    fn of(finished: &[Finished], counted: &[(u8, Positions)]) -> Line {
        Line {
            finished: finished
                .iter()
                .map(|f| FinishedLine {
                    hole: f.hole,
                    ends: f.ends.iter().map(|(e, v)| (End::code(e), v.to_string())).collect(),
                    positions: f.positions.clone(),
                })
                .collect(),
            under_way: None,
            counted: counted.to_vec(),
            counting: None,
        }
    }

    /// The line and its newline.
    fn bytes(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec(self).expect("a saved evaluation serializes");
        bytes.push(b'\n');
        bytes
    }
}

/// Appends `words` to `bytes`, little-endian: how a save holds a list of positions.
fn put_words(bytes: &mut Vec<u8>, words: &[u64]) {
    words.iter().for_each(|w| bytes.extend_from_slice(&w.to_le_bytes()));
}

/// The words `put_words` wrote, or none if `bytes` is cut within a word.
fn words_of(bytes: &[u8]) -> Option<Vec<u64>> {
    let words = bytes.chunks_exact(8).map(|w| u64::from_le_bytes(w.try_into().expect("eight bytes")));
    bytes.len().is_multiple_of(8).then(|| words.collect())
}

/// The most solutions a saved search may keep to show again: each is held (about 300 bytes
/// on the English board) and saved again every few seconds, so a search that may show more
/// is not saved.
pub const MAX_KEPT_SOLUTIONS: u64 = 1_000_000;

/// A search for solutions, saved: its state and the solutions shown so far (as jump
/// indices), which a resumed run shows again before going on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SavedSearch {
    pub search: SearchState,
    pub shown: Vec<Vec<usize>>,
}

#[derive(Serialize, Deserialize)]
struct SearchLine {
    path: Vec<usize>,
    anys: Vec<bool>,
    found: u64,
    positions: u64,
    shown: Vec<Vec<usize>>,
}

impl SavedSearch {
    pub fn encode(&self) -> Vec<u8> {
        let s = &self.search;
        let line = SearchLine {
            path: s.path.clone(),
            anys: s.anys.clone(),
            found: s.found,
            positions: s.positions,
            shown: self.shown.clone(),
        };
        let mut bytes = serde_json::to_vec(&line).expect("a saved search serializes");
        bytes.push(b'\n');
        put_words(&mut bytes, &s.failed);
        bytes
    }

    /// The search `encode` wrote for a board of `jumps` jumps, or what is wrong with it.
    pub fn decode(bytes: &[u8], jumps: usize) -> Result<SavedSearch, Error> {
        let broken = |why: &str| Error::Invalid(format!("it is not a whole saved search: {why}"));
        let split = bytes.iter().position(|&b| b == b'\n').ok_or_else(|| broken("it is cut short"))?;
        let line: SearchLine =
            serde_json::from_slice(&bytes[..split]).map_err(|_| broken("its summary is malformed"))?;
        let failed = words_of(&bytes[split + 1..]).ok_or_else(|| broken("it is cut short"))?;
        let jump_ok = |path: &[usize]| path.iter().all(|&j| j < jumps);
        if !jump_ok(&line.path) || !line.shown.iter().all(|s| jump_ok(s)) || line.anys.len() > line.path.len()
        {
            return Err(broken("it names jumps this board does not have"));
        }
        let search = SearchState {
            path: line.path,
            anys: line.anys,
            found: line.found,
            positions: line.positions,
            failed,
        };
        Ok(SavedSearch { search, shown: line.shown })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every hole a saved word could name: these tests check the encoding, not the board.
    const FULL: Pegs = Pegs(u64::MAX);

    #[test]
    fn a_saved_search_reads_back_and_damage_is_refused() {
        let saved = SavedSearch {
            search: SearchState {
                path: vec![3, 0, 7],
                anys: vec![true, false, false],
                found: 2,
                positions: 40,
                failed: vec![9, 1 << 40],
            },
            shown: vec![vec![3, 1, 2], vec![3, 1, 5]],
        };
        let bytes = saved.encode();
        assert_eq!(SavedSearch::decode(&bytes, 8).unwrap(), saved);
        assert!(SavedSearch::decode(&bytes, 7).is_err(), "jump 7 of a board with 7 jumps");
        assert!(SavedSearch::decode(&bytes[..bytes.len() - 1], 8).is_err());
        assert!(SavedSearch::decode(&bytes[..10], 8).is_err());
    }

    #[test]
    fn end_codes_read_back() {
        for end in [End::Finish(0), End::Finish(255), End::Pegs(1), End::Pegs(2), End::Pegs(u32::MAX)] {
            assert_eq!(End::of_code(End::code(&end)), Some(end));
        }
        assert_eq!(End::of_code(256), None);
        assert_eq!(End::of_code(1 << 32), None);
    }

    #[test]
    fn a_count_under_way_reads_back_and_damage_is_refused() {
        let counted = Positions { raw: 42, up_to_symmetry: 11, by_layer: vec![(9, 1, 1), (8, 2, 1)] };
        let so_far = Positions { raw: 3, up_to_symmetry: 2, by_layer: vec![(9, 1, 1), (8, 2, 1)] };
        let layer = [0x1_0000_00f3u64, 0x2_0000_01e1];
        let bytes = Saved::encode_counting(&[], &[(5, counted.clone())], (0, &so_far, &layer)).unwrap();
        let back = Saved::decode(&bytes, FULL).unwrap();
        assert!(back.finished.is_empty() && back.under_way.is_none());
        assert_eq!(back.counted, [(5, counted)]);
        let counting = back.counting.unwrap();
        assert_eq!((counting.hole, &counting.positions, &counting.layer[..]), (0, &so_far, &layer[..]));
        for cut in 0..bytes.len() {
            // A cut at a word's end leaves a shorter layer: the checkpoint's checksum refuses it.
            let at_word = cut > bytes.len() - 8 * layer.len() && (bytes.len() - cut).is_multiple_of(8);
            assert!(at_word || Saved::decode(&bytes[..cut], FULL).is_err(), "cut at {cut} was accepted");
        }
        // A save of an earlier version (no counting fields) reads as one with none.
        let old = Saved::decode(b"{\"finished\":[],\"under_way\":null}\n", FULL).unwrap();
        assert!(old.counted.is_empty() && old.counting.is_none());
    }

    #[test]
    fn finished_starts_read_back_and_damage_is_refused() {
        let f = Finished {
            hole: 4,
            ends: BTreeMap::from([
                (End::Finish(3), Rational::from((1, 7))),
                (End::Pegs(2), Rational::from((6, 7))),
            ]),
            positions: Positions { raw: 9, up_to_symmetry: 5, by_layer: vec![(14, 1, 1)] },
        };
        let bytes = Saved::encode(std::slice::from_ref(&f), &[], None).unwrap();
        let back = Saved::decode(&bytes, FULL).unwrap();
        assert!(back.under_way.is_none());
        assert_eq!((back.finished[0].hole, &back.finished[0].ends), (4, &f.ends));
        assert_eq!(back.finished[0].positions, f.positions);
        for cut in 0..bytes.len() {
            assert!(Saved::decode(&bytes[..cut], FULL).is_err(), "cut at {cut} was accepted");
        }
    }
}
