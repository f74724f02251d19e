//! Snapshots of the audit's hypothesis table on hand-built designs (hyperfine's habit): the
//! exact class probabilities are typed in, so no exact evaluation or simulation runs here.

use super::{HYPOTHESES_RULE, HypothesisView, hypothesis_table};
use crate::render::Doc;
use crate::solitaire::audit::{CLAIM_GAMES, Design, Hypothesis, Verdict};
use crate::solitaire::policy::Policy;
use rug::Rational;

fn p(text: &str) -> Rational {
    text.parse().expect("a fraction")
}

/// Four designs: the book's, one class alone (twice), and two classes averaged.
fn hypotheses() -> Vec<Hypothesis> {
    let random = p("91623215839957079/20325100400640000000");
    let tip_class = p("232443128903009/33875167334400000");
    let dfm = p("28819195902591527/4065020080128000000");
    let one = |q: &Rational| vec![(Rational::from(1), CLAIM_GAMES, q.clone())];
    let half = Rational::from((1, 2));
    let million = CLAIM_GAMES / 4;
    vec![
        Hypothesis::new(
            "random start hole, as the book describes".into(),
            Design::RandomStart(Policy::Uniform),
            &one(&random),
        ),
        Hypothesis::new("only class A K O empty".into(), Design::Classes(vec![0]), &one(&tip_class)),
        Hypothesis::new("only class D F M empty".into(), Design::Classes(vec![2]), &one(&dfm)),
        Hypothesis::new(
            "1M in each of classes A K O and D F M, averaged".into(),
            Design::Classes(vec![0, 2]),
            &[(half.clone(), million, tip_class), (half, million, dfm)],
        ),
    ]
}

fn views() -> Vec<HypothesisView> {
    hypotheses().iter().map(HypothesisView::of).collect()
}

#[test]
fn every_verdict_follows_from_the_number_beside_it() {
    let h = hypotheses();
    let verdicts: Vec<Verdict> = h.iter().map(|h| h.verdict).collect();
    assert_eq!(verdicts, [Verdict::RuledOut, Verdict::Strained, Verdict::Explains, Verdict::Explains]);
    // One sign: the book's 0.0070 above the prediction is positive, below it negative.
    assert!(h[0].z > 0.0 && h[0].z_nearest > 0.0 && h[2].z < 0.0 && h[2].z_nearest < 0.0);
    // D F M is 2.1 sd from 0.0070 itself but within 1 sd of 0.00705, which prints as 0.0070.
    assert!(h[2].z < -2.0 && h[2].z_nearest > -1.0);
    // A prediction inside 0.00695..0.00705 is at distance 0.
    assert_eq!(h[3].z_nearest, 0.0);
}

#[test]
fn hypothesis_table_text_and_markdown() {
    let mut d = Doc::default();
    d.heading("What could explain 0.0070?");
    for line in HYPOTHESES_RULE {
        d.para(line);
    }
    d.table(hypothesis_table(&views()));
    insta::assert_snapshot!(format!("{}\n{}", d.text(), d.markdown()));
}

#[test]
fn hypotheses_json() {
    insta::assert_snapshot!(crate::render::json(&views()));
}
