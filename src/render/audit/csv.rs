//! The audit as one tidy CSV table: a row per value, `section,subject,measure,value,decimal`.
//! The text's several tables (and its lines) become rows of one shape, so a reader can filter
//! by section and measure.
//!
//! `value` is the exact fraction or integer, a tally, a float, or a word (a verdict); `decimal`
//! is the double nearest to a fraction, or the number again (empty for a word).

use super::{AuditView, Win};
use crate::render::number::finite_decimal_cell;
use crate::render::simulate::estimate::{Big, EstimateView, Value};
use crate::render::values::decimal_cell;
use crate::render::{Table, left};

const COLUMNS: [&str; 5] = ["section", "subject", "measure", "value", "decimal"];

/// Rows of the table, one value each.
struct Rows(Table);

impl Rows {
    fn exact(&mut self, at: (&str, &str), measure: &str, v: &Value) {
        self.push(at, measure, v.0.to_string(), finite_decimal_cell(&v.0));
    }

    fn big(&mut self, at: (&str, &str), measure: &str, n: &Big) {
        self.push(at, measure, n.0.to_string(), n.0.to_string());
    }

    /// A tally: the same number in both columns.
    fn number(&mut self, at: (&str, &str), measure: &str, n: impl Into<u64>) {
        let n = n.into().to_string();
        self.push(at, measure, n.clone(), n);
    }

    /// A float, as JSON writes it (`3.51722561243691e-6`), in both columns.
    fn float(&mut self, at: (&str, &str), measure: &str, x: f64) {
        self.push(at, measure, decimal_cell(x), decimal_cell(x));
    }

    fn word(&mut self, at: (&str, &str), measure: &str, text: &str) {
        self.push(at, measure, text.to_string(), String::new());
    }

    fn win(&mut self, at: (&str, &str), w: &Win) {
        self.exact(at, "win", &w.win);
        if let Some(b) = w.bits {
            self.float(at, "bits", b);
        }
    }

    fn push(&mut self, (section, subject): (&str, &str), measure: &str, value: String, decimal: String) {
        self.0.row(vec![section.into(), subject.into(), measure.into(), value, decimal]);
    }
}

pub fn table(v: &AuditView) -> Table {
    let mut rows = Rows(Table::new(COLUMNS.iter().map(|c| left(c)).collect()));
    claim_rows(&mut rows, v);
    truth_rows(&mut rows, v);
    simulation_rows(&mut rows, v);
    hypothesis_rows(&mut rows, v);
    for a in &v.active_information {
        let at = ("active information", a.assist.as_str());
        rows.win(at, &a.win);
        rows.float(at, "active_information", a.active_information);
    }
    tip_rows(&mut rows, v);
    rows.0
}

fn claim_rows(rows: &mut Rows, v: &AuditView) {
    let at = ("claim", "the book");
    rows.win(at, &v.claim.win);
    rows.float(at, "published_bits", v.claim.published_bits);
    rows.number(at, "games", v.claim.games);
    rows.exact(at, "rounded_from_low", &v.claim.rounded_from[0]);
    rows.exact(at, "rounded_from_high", &v.claim.rounded_from[1]);
}

fn truth_rows(rows: &mut Rows, v: &AuditView) {
    rows.win(("exact", "random start"), &v.exact.random_start);
    for c in &v.exact.classes {
        rows.win(("exact", &format!("class {} ({})", c.class, c.holes.join(" "))), &c.win);
    }
    for s in &v.exact.starts {
        rows.win(("exact", &format!("start {}", s.start)), &s.win);
    }
    for p in &v.exact.policies {
        rows.win(("exact", &format!("{} player, random start", p.policy)), &p.win);
    }
}

fn simulation_rows(rows: &mut Rows, v: &AuditView) {
    let s = &v.simulation;
    rows.number(("simulation", "all games"), "seed", s.seed);
    estimate_rows(rows, "all games", &s.overall);
    for c in &s.classes {
        estimate_rows(rows, &format!("class {} ({})", c.class, c.holes.join(" ")), &c.estimate);
    }
    for st in &s.starts {
        estimate_rows(rows, &format!("start {}", st.start), &st.estimate);
    }
}

fn estimate_rows(rows: &mut Rows, subject: &str, e: &EstimateView) {
    let at = ("simulation", subject);
    let w = &e.win;
    rows.number(at, "games", w.games);
    rows.number(at, "wins", w.wins);
    rows.float(at, "estimate", w.compared.estimate);
    let [low, high] = w.compared.ci95.expect("a proportion has its Wilson interval");
    rows.float(at, "ci95_low", low);
    rows.float(at, "ci95_high", high);
    if let Some(p) = &w.compared.exact {
        rows.exact(at, "exact", p);
    }
    if let Some(z) = w.compared.z {
        rows.float(at, "z", z);
    }
    if let Some(chi) = &e.chi_square {
        rows.float(at, "chi_square", chi.statistic);
        rows.number(at, "chi_square_df", chi.df);
        rows.float(at, "chi_square_p", chi.p_value);
    }
    for (pegs, n) in &e.games_by_pegs_left {
        rows.number(at, &format!("games_by_pegs_left.{pegs}"), *n);
    }
    for (pegs, p) in e.pegs_left.iter().flatten() {
        rows.exact(at, &format!("pegs_left.{pegs}"), p);
    }
}

fn hypothesis_rows(rows: &mut Rows, v: &AuditView) {
    for h in &v.hypotheses {
        let at = ("hypothesis", h.hypothesis.as_str());
        rows.number(at, "games", h.games);
        rows.exact(at, "predicted", &h.predicted);
        rows.float(at, "sd", h.sd);
        rows.float(at, "z", h.z);
        rows.float(at, "z_nearest", h.z_nearest);
        rows.word(at, "verdict", h.verdict);
    }
}

fn tip_rows(rows: &mut Rows, v: &AuditView) {
    let t = &v.tip;
    let subject = format!("start {}", t.start);
    rows.big(("tip", &subject), "games", &t.games);
    for (pegs, n) in &t.games_by_pegs_left {
        let subject = format!("{pegs} {} left", if *pegs == 1 { "peg" } else { "pegs" });
        let at = ("tip", subject.as_str());
        rows.big(at, "games", n);
        if let Some(share) = t.share_of_games.get(pegs) {
            rows.exact(at, "share_of_games", share);
        }
        if let Some(p) = t.pegs_left.get(pegs) {
            rows.exact(at, "probability", p);
        }
    }
}
