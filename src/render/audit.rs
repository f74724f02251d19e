//! The audit report: a document (text or Markdown), JSON, and SVG plots.

use super::doc::Doc;
use super::{exact, probability};
use crate::render::number::{decimal, grouped};
use crate::solitaire::audit::{self, AuditReport, Verdict};
use crate::solitaire::board::{Board, builtin};
use rug::Rational;
use serde_json::{Value, json};

fn names(board: &Board, holes: &[u8]) -> String {
    holes.iter().map(|&h| board.hole_name(h)).collect::<Vec<_>>().join(" ")
}

fn bits(p: &Rational) -> String {
    format!("{:.4}", crate::render::number::bits(p))
}

pub fn document(r: &AuditReport) -> Doc {
    let board = builtin("triangle5").expect("built-in");
    let random = r.random_start();
    let sim = &r.simulation;
    let claim = Rational::from(audit::CLAIM_P);
    let mut d = Doc::default();
    d.heading("Audit: random play on the 15-hole peg solitaire (the Cracker Barrel puzzle)");

    d.heading("The claim");
    d.para(format!(
        "Introduction to Evolutionary Informatics (section 5.4.1.2): with a random start hole and random moves, \
         simulation of {} games gave p = 0.0070, an endogenous information of {} bits.",
        grouped(&audit::CLAIM_GAMES.into()),
        audit::CLAIM_BITS
    ));

    d.heading("The truth, exactly");
    d.para(format!(
        "Exact evaluation over every reachable position (rational arithmetic, uniform choice among legal jumps):\n\
         P(one peg left | random start hole) = {random}\n                                    = {} = {} bits.",
        decimal(random, 6),
        bits(random)
    ));
    let by_class: Vec<Vec<String>> = r
        .exact
        .classes
        .iter()
        .map(|c| {
            let est = sim.classes.iter().find(|e| e.holes.iter().all(|h| c.holes.contains(h)));
            vec![
                names(&board, &c.holes),
                decimal(&c.value, 6),
                bits(&c.value),
                est.map_or("-".into(), |e| format!("{:.6}", e.estimate())),
                est.and_then(|e| e.z).map_or("-".into(), |z| format!("{z:+.2}")),
                c.value.to_string(),
            ]
        })
        .collect();
    d.para(format!(
        "Per symmetry class, beside the {}-game simulation below (z: its estimate against the exact value):",
        grouped(&sim.overall.games.into())
    ));
    d.table(super::legacy_table(&["class", "P(one peg)", "bits", "simulated", "z", "exact"], &by_class));

    d.heading("The book's experiment, run again");
    let o = &sim.overall;
    let z_claim = crate::engine::stats::z_score(o.wins, o.games, claim.to_f64()).unwrap_or(f64::NAN);
    d.para(format!(
        "{} games, each from a uniformly random empty hole, uniform random jumps, seed {}:\n\
         {} wins, estimate {:.6}, 95% interval [{:.6}, {:.6}].\n\
         Against the exact value: z = {:+.2}. Against the published 0.0070: z = {:+.1}.",
        grouped(&o.games.into()),
        r.config.seed,
        grouped(&o.wins.into()),
        o.estimate(),
        o.ci95.0,
        o.ci95.1,
        o.z.unwrap_or(f64::NAN),
        z_claim
    ));
    if let Some(chi) = &o.chi_square {
        d.para(format!(
            "Pegs left against the exact distribution: chi-square {:.2} on {} degrees of freedom, p = {:.3}.",
            chi.statistic, chi.degrees_of_freedom, chi.p_value
        ));
    }

    d.heading("What could explain 0.0070?");
    d.para(
        "Each design below has an exact win probability and, over its number of games, a spread (sd). \
         z is how many sds the published 0.0070 lies from the prediction; the verdict allows for the book's \
         rounding (0.0070 stands for 0.00695 to 0.00705): within 2 sd explains it, beyond 3 sd rules it out.",
    );
    let rows: Vec<Vec<String>> = r
        .hypotheses
        .iter()
        .map(|h| {
            vec![
                h.name.clone(),
                grouped(&h.games.into()),
                decimal(&h.predicted, 6),
                format!("{:.7}", h.sd),
                format!("{:+.1}", h.z),
                h.verdict.text().into(),
            ]
        })
        .collect();
    d.table(super::legacy_table(&["hypothesis", "games", "predicts", "sd", "z of 0.0070", "verdict"], &rows));
    let explaining: Vec<&str> =
        r.hypotheses.iter().filter(|h| h.verdict == Verdict::Explains).map(|h| h.name.as_str()).collect();
    d.para(format!(
        "Consistent with the published number: {}. Everything else is ruled out or strained, \
         above all the design the book describes.",
        if explaining.is_empty() { "none".to_string() } else { explaining.join("; ") }
    ));

    d.heading("Active information of the obvious assists");
    let rows: Vec<Vec<String>> = r
        .active_information
        .iter()
        .map(|a| vec![a.assist.clone(), decimal(&a.q, 6), format!("{:.4}", a.bits)])
        .collect();
    d.para(format!("log2(q / p) with p = {} (random start):", decimal(random, 6)));
    d.table(super::legacy_table(&["assist", "q", "bits"], &rows));

    d.heading("Pegs left from the tip: probability is not a share of sequences");
    let tip = &r.exact.starts[0];
    let counts = &r.tip_counts.starts[0];
    let rows: Vec<Vec<String>> = tip
        .pegs_left
        .iter()
        .map(|(pegs, p)| {
            let n = counts.games_by_pegs_left.get(pegs).cloned().unwrap_or_default();
            let share = Rational::from((n.clone(), counts.games.clone()));
            vec![pegs.to_string(), grouped(&n), decimal(&share, 4), decimal(p, 4)]
        })
        .collect();
    d.para(format!(
        "Seed 000's histogram counts the {} distinct games from the tip; a random player does not pick games \
         uniformly, so one peg is left in {} of the games but with probability {}.",
        grouped(&counts.games),
        decimal(&Rational::from((counts.games_by_pegs_left[&1].clone(), counts.games.clone())), 4),
        decimal(&tip.win, 4)
    ));
    d.table(super::legacy_table(&["pegs", "games", "share of games", "probability"], &rows));
    d
}

pub fn json(r: &AuditReport) -> Value {
    let board = builtin("triangle5").expect("built-in");
    let sim = &r.simulation;
    json!({
        "claim": { "p": "7/1000", "games": audit::CLAIM_GAMES, "bits": audit::CLAIM_BITS },
        "exact": {
            "random_start": probability(r.random_start()),
            "classes": r.exact.classes.iter().map(|c| json!({
                "holes": c.holes.iter().map(|&h| board.hole_name(h)).collect::<Vec<_>>(),
                "win": probability(&c.value),
            })).collect::<Vec<_>>(),
            "starts": r.exact.starts.iter().map(|s| json!({
                "hole": board.hole_name(s.hole), "win": probability(&s.win),
            })).collect::<Vec<_>>(),
            "policies": r.policies.iter().map(|(p, v)| json!({"policy": p.name(), "random_start": probability(v)}))
                .collect::<Vec<_>>(),
        },
        "simulation": super::simulate::json(&board, sim),
        "hypotheses": r.hypotheses.iter().map(|h| json!({
            "name": h.name, "games": h.games, "predicted": exact(&h.predicted),
            "predicted_decimal": h.predicted.to_f64(), "sd": h.sd, "z": h.z,
            "verdict": match h.verdict { Verdict::Explains => "explains", Verdict::Strained => "strained", Verdict::RuledOut => "ruled out" },
        })).collect::<Vec<_>>(),
        "active_information": r.active_information.iter().map(|a| json!({
            "assist": a.assist, "q": exact(&a.q), "bits": a.bits,
        })).collect::<Vec<_>>(),
    })
}
