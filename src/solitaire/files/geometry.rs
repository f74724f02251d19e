//! Between a layout's coordinates (any offset and scale, y growing upwards, as seed 002
//! allows) and the character grid a board is drawn on (integer column and row, y growing
//! downwards; neighbours in a row two columns apart, so triangle rows can interleave).

use super::Lattice;

/// Grids larger than this are not drawn proportionally but by rank.
const MAX_GRID: f64 = 400.0;

/// Grid cells for layout points. Rows are the distinct y values, one row per smallest
/// vertical gap; columns are scaled so neighbours in a row are two columns apart. Points
/// too irregular for a proportional grid are placed by the rank of their x and y instead.
/// Fails when two points coincide, naming the holes numbered from `base`, as the file numbers
/// them.
pub fn to_grid(points: &[(f64, f64)], base: i64) -> Result<Vec<(i32, i32)>, String> {
    let hole = |i: usize| i as i64 + base;
    if let Some(i) = points.iter().position(|(x, y)| !x.is_finite() || !y.is_finite()) {
        return Err(format!("hole {} has a coordinate that is not a finite number", hole(i)));
    }
    // Points within a millionth of the largest coordinate are one point, so that decimals
    // rounded in a file still meet; the hole farthest out sets that scale.
    let size = |(x, y): (f64, f64)| x.abs().max(y.abs());
    let far = (0..points.len()).max_by(|&a, &b| size(points[a]).total_cmp(&size(points[b]))).unwrap_or(0);
    let eps = 1e-6 * points.get(far).map_or(0.0, |&p| size(p)).max(1.0);
    // Two holes that meet only at the scale a far hole sets are not at the same coordinates:
    // that hole is named as the cause.
    let clash = |a: usize, b: usize| {
        let (p, q) = (points[a], points[b]);
        let near = 1e-6 * size(p).max(size(q)).max(1.0);
        let (a, b) = (hole(a), hole(b));
        if (p.0 - q.0).abs() <= near && (p.1 - q.1).abs() <= near {
            format!("holes {a} and {b} have the same coordinates")
        } else {
            format!(
                "hole {}'s coordinates are so large that holes {a} and {b}, a millionth of them apart or less, cannot be told apart",
                hole(far)
            )
        }
    };
    // Rows: distinct y values, top (largest y) first.
    let mut levels: Vec<f64> = points.iter().map(|p| p.1).collect();
    levels.sort_by(|a, b| b.total_cmp(a));
    levels.dedup_by(|a, b| (*a - *b).abs() <= eps);
    let row_of = |y: f64| levels.iter().position(|l| (l - y).abs() <= eps).expect("every y has a level");
    // The smallest gap between neighbours in one row, and the smallest between rows.
    let mut row_gap = f64::INFINITY;
    let mut rows: Vec<Vec<(f64, usize)>> = vec![Vec::new(); levels.len()];
    for (i, &(x, y)) in points.iter().enumerate() {
        rows[row_of(y)].push((x, i));
    }
    for row in &mut rows {
        row.sort_by(|a, b| a.0.total_cmp(&b.0));
        for w in row.windows(2) {
            let gap = w[1].0 - w[0].0;
            if gap <= eps {
                return Err(clash(w[0].1, w[1].1));
            }
            row_gap = row_gap.min(gap);
        }
    }
    let level_gap = levels.windows(2).map(|w| w[0] - w[1]).fold(f64::INFINITY, f64::min);
    let x_unit = if row_gap.is_finite() { row_gap / 2.0 } else { 1.0 };
    let y_unit = if level_gap.is_finite() { level_gap } else { 1.0 };
    let min_x = points.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let top = levels[0];
    let cells: Vec<(f64, f64)> =
        points.iter().map(|&(x, y)| ((x - min_x) / x_unit, (top - y) / y_unit)).collect();
    if cells.iter().all(|&(c, r)| c.round() <= MAX_GRID && r.round() <= MAX_GRID) {
        let grid: Vec<(i32, i32)> =
            cells.iter().map(|&(c, r)| (c.round() as i32, r.round() as i32)).collect();
        let mut sorted = grid.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() == grid.len() {
            return Ok(grid);
        }
    }
    // By rank: row by level, column by the rank of x among all distinct x values.
    let mut xs: Vec<f64> = points.iter().map(|p| p.0).collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup_by(|a, b| (*a - *b).abs() <= eps);
    Ok(points
        .iter()
        .map(|&(x, y)| {
            let col = xs.iter().position(|v| (v - x).abs() <= eps).expect("every x has a rank");
            (2 * col as i32, row_of(y) as i32)
        })
        .collect())
}

/// Layout coordinates for grid cells: unit distance between neighbours, y upwards, the
/// first row at y = 0. Triangular lattices get equilateral triangles.
pub fn from_grid(cells: &[(i32, i32)], lattice: Lattice) -> Vec<(f64, f64)> {
    let min_x = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let min_y = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let (sx, sy) = match lattice {
        Lattice::Triangular => (0.5, 3f64.sqrt() / 2.0),
        Lattice::Square | Lattice::SquareDiagonal => (0.5, 1.0),
    };
    cells.iter().map(|&(x, y)| (f64::from(x - min_x) * sx, -f64::from(y - min_y) * sy)).collect()
}

/// A coordinate as short text: at most nine decimals, no trailing zeros, no "-0".
pub fn coordinate_text(v: f64) -> String {
    let s = format!("{v:.9}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_002_triangle_layout_becomes_the_built_in_grid() {
        // Row r, position k at x = (2k - r) / sqrt(3), y = -r: seed 002's cracker layout.
        let points: Vec<(f64, f64)> = (0..5)
            .flat_map(|r| (0..=r).map(move |k| ((2 * k - r) as f64 / 3f64.sqrt(), -(r as f64))))
            .collect();
        let grid = to_grid(&points, 0).unwrap();
        let want: Vec<(i32, i32)> = (0..5).flat_map(|r| (0..=r).map(move |k| (2 * k + 4 - r, r))).collect();
        assert_eq!(grid, want);
    }

    #[test]
    fn grid_round_trips_through_coordinates() {
        let cells = vec![(2, 0), (4, 0), (0, 1), (2, 1), (4, 1), (6, 1), (2, 2)];
        let coords = from_grid(&cells, Lattice::Square);
        let text: Vec<(f64, f64)> = coords
            .iter()
            .map(|&(x, y)| (coordinate_text(x).parse().unwrap(), coordinate_text(y).parse().unwrap()))
            .collect();
        assert_eq!(to_grid(&text, 0).unwrap(), vec![(2, 0), (4, 0), (0, 1), (2, 1), (4, 1), (6, 1), (2, 2)]);
    }

    #[test]
    fn coinciding_points_and_irregular_layouts() {
        let same = [(0.0, 0.0), (1.0, 0.0), (0.0, 0.0)];
        assert_eq!(to_grid(&same, 0).unwrap_err(), "holes 0 and 2 have the same coordinates");
        // Numbered as the file numbers its holes.
        assert_eq!(to_grid(&same, 1).unwrap_err(), "holes 1 and 3 have the same coordinates");
        // Holes a unit apart meet at the scale of a hole at 1e308: it is named, not them alone.
        assert_eq!(
            to_grid(&[(0.0, 1.0), (1e308, 1e308), (1.0, 0.0), (0.0, 0.0)], 0).unwrap_err(),
            "hole 1's coordinates are so large that holes 0 and 3, a millionth of them apart or less, cannot be told apart"
        );
        assert!(to_grid(&[(f64::NAN, 0.0)], 0).is_err());
        // A tiny gap would need a huge grid: placed by rank instead.
        let grid = to_grid(&[(0.0, 0.0), (0.01, 0.0), (1000.0, 0.0)], 0).unwrap();
        assert_eq!(grid, vec![(0, 0), (2, 0), (4, 0)]);
        assert_eq!(coordinate_text(-0.0), "0");
        assert_eq!(coordinate_text(0.5773502691896258), "0.577350269");
        assert_eq!(coordinate_text(1.5), "1.5");
    }
}
