//! `audit`: the textbook's claim, the exact truth, the book's experiment run again, the
//! designs that could explain 0.0070 (each verdict beside the number it is read from), the
//! active information of the obvious assists, and the pegs left from the tip.

mod csv;

use super::simulate::SimulationView;
use super::simulate::estimate::{Big, BoardInfo, Classes, Value, interval, names, proportion, signed};
use super::values::Win;
use super::{Doc, Report, Style, Table, left, right};
use crate::render::number::{grouped, plural, significant, significant_exact};
use crate::solitaire::audit::{self, AuditReport, Design, Hypothesis, Verdict};
use crate::solitaire::board::{Board, SymmetryGroup, builtin};
use rug::{Integer, Rational};
use serde::Serialize;
use std::collections::BTreeMap;

/// The document of `audit`.
#[derive(Clone, Debug, Serialize)]
pub struct AuditView {
    pub command: &'static str,
    pub board: BoardInfo,
    pub claim: ClaimView,
    pub exact: TruthView,
    /// The book's experiment run again: random start, uniform play.
    pub simulation: SimulationView,
    pub hypotheses: Vec<HypothesisView>,
    pub active_information: Vec<AssistView>,
    pub tip: TipView,
    /// The plots' files, when `--svg` wrote them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub plots: Vec<String>,
}

/// The published claim, and the values its rounding stands for.
#[derive(Clone, Debug, Serialize)]
pub struct ClaimView {
    /// 0.0070 as printed, with -log2 of it.
    #[serde(flatten)]
    pub win: Win,
    /// The bits the book states, 7.15.
    pub published_bits: f64,
    pub games: u64,
    /// Every estimate from the first to the second (both included) prints as 0.0070.
    pub rounded_from: [Value; 2],
}

/// The exact truth under uniform random play, and under the other players.
#[derive(Clone, Debug, Serialize)]
pub struct TruthView {
    pub random_start: Win,
    pub classes: Vec<ClassWin>,
    pub starts: Vec<StartWin>,
    pub policies: Vec<PolicyWin>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ClassWin {
    pub class: usize,
    pub holes: Vec<String>,
    #[serde(flatten)]
    pub win: Win,
}

#[derive(Clone, Debug, Serialize)]
pub struct StartWin {
    pub start: String,
    pub class: usize,
    #[serde(flatten)]
    pub win: Win,
}

/// A random player's win probability from a random start hole.
#[derive(Clone, Debug, Serialize)]
pub struct PolicyWin {
    pub policy: &'static str,
    #[serde(flatten)]
    pub win: Win,
}

/// One design judged against 0.0070: z = (observed - predicted) / sd, the book's number the
/// observation; the verdict is read from `z_nearest`.
#[derive(Clone, Debug, Serialize)]
pub struct HypothesisView {
    pub hypothesis: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<usize>,
    pub games: u64,
    pub predicted: Value,
    pub sd: f64,
    pub z: f64,
    pub z_nearest: f64,
    pub verdict: &'static str,
}

impl HypothesisView {
    pub fn of(h: &Hypothesis) -> HypothesisView {
        let (policy, classes) = match &h.design {
            Design::RandomStart(p) => (Some(p.name()), vec![]),
            Design::Classes(c) => (None, c.iter().map(|c| c + 1).collect()),
        };
        HypothesisView {
            hypothesis: h.name.clone(),
            policy,
            classes,
            games: h.games,
            predicted: Value::of(&h.predicted),
            sd: h.sd,
            z: h.z,
            z_nearest: h.z_nearest,
            verdict: h.verdict.text(),
        }
    }
}

/// An assist that raises the win probability from the random start's p to q: log2(q / p).
#[derive(Clone, Debug, Serialize)]
pub struct AssistView {
    pub assist: String,
    #[serde(flatten)]
    pub win: Win,
    pub active_information: f64,
}

/// Complete games from the tip by pegs left (seed 000's histogram), beside the probability
/// of each number of pegs left under random play.
#[derive(Clone, Debug, Serialize)]
pub struct TipView {
    pub start: String,
    pub class: usize,
    /// Complete games from the tip.
    pub games: Big,
    pub games_by_pegs_left: BTreeMap<u32, Big>,
    /// The share of the complete games that end with each number of pegs.
    pub share_of_games: BTreeMap<u32, Value>,
    pub pegs_left: BTreeMap<u32, Value>,
}

impl AuditView {
    pub fn new(r: &AuditReport) -> AuditView {
        let board = builtin("triangle5").expect("built-in");
        let group = SymmetryGroup::of_board(&board);
        AuditView {
            command: "audit",
            board: BoardInfo::new(&board, group.order()),
            claim: claim(),
            exact: truth(&board, r),
            simulation: SimulationView::new(&board, &group, &r.simulation),
            hypotheses: r.hypotheses.iter().map(HypothesisView::of).collect(),
            active_information: r
                .active_information
                .iter()
                .map(|a| AssistView {
                    assist: a.assist.clone(),
                    win: Win::of(&a.q),
                    active_information: a.bits,
                })
                .collect(),
            tip: tip(&board, &Classes::of(&group), r),
            plots: Vec::new(),
        }
    }
}

fn claim() -> ClaimView {
    ClaimView {
        win: Win::of(&Rational::from(audit::CLAIM_P)),
        published_bits: audit::CLAIM_BITS,
        games: audit::CLAIM_GAMES,
        rounded_from: audit::CLAIM_ROUNDED_FROM.map(|p| Value(Rational::from(p))),
    }
}

fn truth(board: &Board, r: &AuditReport) -> TruthView {
    TruthView {
        random_start: Win::of(r.random_start()),
        classes: r
            .exact
            .classes
            .iter()
            .map(|c| ClassWin { class: c.class + 1, holes: names(board, &c.holes), win: Win::of(&c.value) })
            .collect(),
        starts: r
            .exact
            .starts
            .iter()
            .map(|s| StartWin {
                start: board.hole_name(s.hole).into(),
                class: s.class + 1,
                win: Win::of(&s.win),
            })
            .collect(),
        policies: r.policies.iter().map(|(p, v)| PolicyWin { policy: p.name(), win: Win::of(v) }).collect(),
    }
}

fn tip(board: &Board, classes: &Classes, r: &AuditReport) -> TipView {
    let exact = &r.exact.starts[0];
    let counts = &r.tip_counts.starts[0];
    let share = |n: &Integer| Value(Rational::from((n.clone(), counts.games.clone())));
    TipView {
        start: board.hole_name(counts.hole).into(),
        class: classes.number(counts.hole),
        games: Big(counts.games.clone()),
        games_by_pegs_left: counts.games_by_pegs_left.iter().map(|(k, n)| (*k, Big(n.clone()))).collect(),
        share_of_games: counts.games_by_pegs_left.iter().map(|(k, n)| (*k, share(n))).collect(),
        pegs_left: exact.pegs_left.iter().map(|(k, p)| (*k, Value::of(p))).collect(),
    }
}

impl Report for AuditView {
    fn document(&self, style: Style) -> Doc {
        let mut d = Doc::default();
        d.heading("Audit: random play on the 15-hole peg solitaire (the Cracker Barrel puzzle)");
        self.claim_section(&mut d);
        self.truth_section(&mut d, style);
        self.rerun_section(&mut d);
        self.hypotheses_section(&mut d);
        self.assists_section(&mut d);
        self.tip_section(&mut d);
        if !self.plots.is_empty() {
            d.para(format!("Plots written to {}.", self.plots.join(", ")));
        }
        d
    }

    fn table(&self) -> Option<Table> {
        Some(csv::table(self))
    }
}

impl AuditView {
    fn claim_section(&self, d: &mut Doc) {
        d.heading("The claim");
        d.para(format!(
            "Introduction to Evolutionary Informatics (section 5.4.1.2): with a random start hole and random \
             moves, simulation of {} games gave p = 0.0070, an endogenous information of {} bits.",
            grouped(self.claim.games),
            self.claim.published_bits
        ));
    }

    fn truth_section(&self, d: &mut Doc, style: Style) {
        let random = &self.exact.random_start;
        d.heading("The truth, exactly");
        d.para(
            "Exact evaluation over every reachable position (rational arithmetic, uniform choice among legal \
             jumps):",
        );
        d.para(format!(
            "P(one peg left | random start hole) = {} = {} = {} bits.",
            random.win.fraction(style),
            random.win.decimal(),
            random.bits_text()
        ));
        d.para(format!(
            "Per symmetry class, beside the {}-game simulation below (z = (estimate - exact) / sd):",
            grouped(self.simulation.overall.win.games)
        ));
        d.table(self.class_table(style));
        let others: Vec<String> = self
            .exact
            .policies
            .iter()
            .map(|p| format!("{} {} ({} bits)", p.policy, p.win.win.decimal(), p.win.bits_text()))
            .collect();
        d.para(format!("From a random start hole under each random player: {}.", others.join(", ")));
    }

    fn class_table(&self, style: Style) -> Table {
        let mut t = Table::new(vec![
            right("class"),
            left("holes"),
            right("P(one peg)"),
            right("bits"),
            right("simulated"),
            right("z"),
            left("exact"),
        ]);
        for c in &self.exact.classes {
            let sim = self.simulation.classes.iter().find(|e| e.class == c.class).map(|e| &e.estimate.win);
            t.row(vec![
                c.class.to_string(),
                c.holes.join(" "),
                c.win.win.decimal(),
                c.win.bits_text(),
                sim.map_or("-".into(), |e| proportion(e.compared.estimate)),
                sim.and_then(|e| e.compared.z).map_or("-".into(), signed),
                c.win.win.fraction(style),
            ]);
        }
        t
    }

    fn rerun_section(&self, d: &mut Doc) {
        let s = &self.simulation;
        let o = &s.overall.win;
        d.heading("The book's experiment, run again");
        d.para(format!(
            "{}, each from a uniformly random empty hole, uniform random jumps, seed {}: {}, \
             estimate {}, 95% interval {}.",
            plural(o.games, "game", "games"),
            s.seed,
            plural(o.wins, "win", "wins"),
            proportion(o.compared.estimate),
            interval(o.compared.ci95)
        ));
        if let Some(z) = o.compared.z {
            d.para(format!("Against the exact value: z = (estimate - exact) / sd = {}.", signed(z)));
        }
        if let Some(chi) = &s.overall.chi_square {
            d.para(format!("Pegs left against the exact distribution: {}.", chi.text()));
        }
        if let Some(h) = self.hypotheses.first() {
            d.para(format!(
                "The published 0.0070 against this design's exact value, over the book's {} games: \
                 z = (0.0070 - exact) / sd = {} (the first design below).",
                grouped(h.games),
                signed(h.z)
            ));
        }
    }

    fn hypotheses_section(&self, d: &mut Doc) {
        d.heading("What could explain 0.0070?");
        for line in HYPOTHESES_RULE {
            d.para(line);
        }
        d.table(hypothesis_table(&self.hypotheses));
        let explaining: Vec<&str> = self
            .hypotheses
            .iter()
            .filter(|h| h.verdict == Verdict::Explains.text())
            .map(|h| h.hypothesis.as_str())
            .collect();
        d.para(format!(
            "Consistent with the published number: {}. Everything else is strained or ruled out, above all \
             the design the book describes.",
            if explaining.is_empty() { "none".to_string() } else { explaining.join("; ") }
        ));
        d.para(format!(
            "Seed 001's guess, every game from the tip ({}), is the design \"only class {} empty\": the tip \
             is in class {}.",
            self.tip.start,
            self.class_holes(self.tip.class),
            self.tip.class
        ));
    }

    /// The holes of class `class`, joined by spaces.
    fn class_holes(&self, class: usize) -> String {
        self.exact.classes.iter().find(|c| c.class == class).map_or(String::new(), |c| c.holes.join(" "))
    }

    fn assists_section(&self, d: &mut Doc) {
        d.heading("Active information of the obvious assists");
        d.para(format!("log2(q / p) with p = {} (random start):", self.exact.random_start.win.decimal()));
        let mut t = Table::new(vec![left("assist"), right("q"), right("bits")]);
        for a in &self.active_information {
            t.row(vec![a.assist.clone(), a.win.win.decimal(), format!("{:.4}", a.active_information)]);
        }
        d.table(t);
    }

    fn tip_section(&self, d: &mut Doc) {
        let tip = &self.tip;
        d.heading("Pegs left from the tip: probability is not a share of sequences");
        let four = |f: Option<&Value>| f.map_or("-".into(), |f| significant_exact(&f.0, 4));
        d.para(format!(
            "Seed 000's histogram counts the {} distinct games from the tip; a random player does not pick \
             games uniformly, so one peg is left in {} of the games but with probability {}.",
            tip.games.grouped(),
            four(tip.share_of_games.get(&1)),
            four(tip.pegs_left.get(&1))
        ));
        let mut t = Table::new(vec![
            right("pegs left"),
            right("games"),
            right("share of games"),
            right("probability"),
        ]);
        for (pegs, n) in &tip.games_by_pegs_left {
            t.row(vec![
                pegs.to_string(),
                n.grouped(),
                four(tip.share_of_games.get(pegs)),
                four(tip.pegs_left.get(pegs)),
            ]);
        }
        d.table(t);
    }
}

/// How the hypothesis table is read, in the words under its heading: what z is, how the
/// rounding of the published 0.0070 is allowed for, and the rule of the verdicts.
pub const HYPOTHESES_RULE: [&str; 3] = [
    "Each design predicts the win probability exactly and, over its number of games, a spread sd; both z \
     columns are (observed - predicted) / sd, the book's number the observation.",
    "The book prints two significant digits, so any estimate from 0.00695 to 0.00705 would appear as its \
     0.0070: \"z of nearest\" measures to the one of those values nearest to the prediction (0 when the \
     prediction lies among them).",
    "The verdict is read from \"z of nearest\" alone: |z| up to 2 explains the number, up to 3 strains it, \
     beyond 3 rules it out.",
];

/// The hypotheses, each verdict beside the number it is read from.
pub fn hypothesis_table(hypotheses: &[HypothesisView]) -> Table {
    let mut t = Table::new(vec![
        left("hypothesis"),
        right("games"),
        right("predicts"),
        right("sd"),
        right("z of 0.0070"),
        right("z of nearest"),
        left("verdict"),
    ]);
    for h in hypotheses {
        t.row(vec![
            h.hypothesis.clone(),
            grouped(h.games),
            h.predicted.decimal(),
            significant(h.sd, 3),
            signed(h.z),
            signed(h.z_nearest),
            h.verdict.to_string(),
        ]);
    }
    t
}

#[cfg(test)]
mod tests;
