//! `--plot out.svg`: the report drawn as a standalone SVG file, written only where it makes a new
//! file or replaces one an earlier run wrote (its mark says so).

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};

use super::human::pct;
use super::*;

/// How a plot this command wrote starts (an XML comment before the SVG), so that it may be replaced.
pub(super) const PLOT_MARK: &str = "<!-- sowlang analyze plot";

/// The plot's file, checked before the first game. The SVG goes to a hidden file beside it that is
/// renamed over it at the end, so no half-written plot is ever left; that file is removed when the
/// run stops before (see `Drop`).
pub(super) struct PlotFile {
    target: PathBuf,
    temp: PathBuf,
    written: bool,
}

impl PlotFile {
    /// Checks that `path` names a file whose directory exists and takes a new file.
    pub(super) fn prepare(path: &Path) -> Result<PlotFile, Diagnostic> {
        let refuse = |message: String, help: &str| Diagnostic::bare("sow::analyze::unwritable", message).with_help(help.to_string());
        let shown = path.display();
        if path.file_name().is_none() || path.is_dir() {
            return Err(refuse(
                format!("the plot `{shown}` is a directory, not a file name"),
                "give the plot's file name, e.g. `--plot results.svg`",
            ));
        }
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if !dir.is_dir() {
            return Err(refuse(
                format!("cannot write the plot `{shown}`: the directory `{}` does not exist", dir.display()),
                "create the directory first, or write the plot somewhere else",
            ));
        }
        // Only a plot this command wrote is replaced: never a rule file, a link, a device or a FIFO
        // (which would also block the command).
        if let Some(why) = crate::cli::output::would_clobber(path, PLOT_MARK) {
            return Err(refuse(
                format!("will not replace `{shown}` with the plot: {why}"),
                "choose another file name for the plot",
            ));
        }
        let temp = match crate::cli::output::temp_beside(path) {
            Ok(t) => t,
            Err(e) => return Err(refuse(format!("cannot write the plot `{shown}`: {e}"), "give the plot's file name")),
        };
        if let Err(e) = OpenOptions::new().write(true).create_new(true).open(&temp) {
            return Err(refuse(
                format!("cannot write the plot `{shown}`: cannot create a file in `{}`: {e}", dir.display()),
                "choose a directory you can write to",
            ));
        }
        Ok(PlotFile {
            target: path.to_path_buf(),
            temp,
            written: false,
        })
    }

    /// Writes the SVG and puts it in place.
    pub(super) fn write(mut self, svg: &str) -> Result<(), Diagnostic> {
        std::fs::write(&self.temp, svg)
            .and_then(|()| std::fs::rename(&self.temp, &self.target))
            .map_err(|e| {
                Diagnostic::bare(
                    "sow::analyze::unwritable",
                    format!("cannot write the plot `{}`: {e}", self.target.display()),
                )
            })?;
        self.written = true;
        Ok(())
    }
}

impl Drop for PlotFile {
    fn drop(&mut self) {
        if !self.written {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

/// Escapes text for SVG.
pub(super) fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// One piece of text on the plot.
pub(super) struct Label {
    x: f64,
    y: f64,
    size: f64,
    anchor: &'static str,
    /// Read bottom to top (an axis title beside a vertical axis).
    vertical: bool,
    text: String,
}

impl Label {
    fn new(x: f64, y: f64, size: f64, anchor: &'static str, text: impl Into<String>) -> Label {
        Label {
            x,
            y,
            size,
            anchor,
            vertical: false,
            text: text.into(),
        }
    }

    fn svg(&self) -> String {
        let turn = if self.vertical {
            format!(" transform=\"rotate(-90 {:.1} {:.1})\"", self.x, self.y)
        } else {
            String::new()
        };
        format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"{}\" text-anchor=\"{}\"{turn}>{}</text>\n",
            self.x,
            self.y,
            self.size,
            self.anchor,
            xml(&self.text)
        )
    }
}

/// A generous width for `text` at `size` in a sans-serif font (0.6 em a character), to keep labels apart.
pub(super) fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.6
}

/// `text` cut to fit `width` at `size`, with an ellipsis when it was cut.
pub(super) fn fit(text: &str, width: f64, size: f64) -> String {
    let most = (width / (size * 0.6)) as usize;
    if text.chars().count() <= most {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(most.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// A hand-written SVG: the histogram of game lengths on the left, the seat win rates with their 95%
/// intervals on the right. The page is cut into horizontal bands, each holding one kind of text
/// (title, panel titles, the value labels above the bars, the plots, tick labels, axis titles, the
/// summary line), and a bar's value label never goes above its band, so no two labels can meet
/// however the figures fall (a 100% bar once pushed its label into the title).
pub(super) fn plot_svg(r: &Report) -> String {
    let (w, h) = (900.0, 460.0);
    let (title_y, note_y, panel_y) = (28.0, 48.0, 78.0);
    let (top, ph) = (110.0, 260.0);
    let bottom = top + ph;
    let (tick_y, axis_y, summary_y) = (bottom + 18.0, bottom + 40.0, bottom + 64.0);
    let mut labels: Vec<Label> = Vec::new();
    let mut shapes = String::new();
    let title = format!(
        "{}: {} games, {} (south) vs {} (north)",
        r.game, r.games, r.players.south, r.players.north
    );
    labels.push(Label::new(w / 2.0, title_y, 16.0, "middle", fit(&title, w - 40.0, 16.0)));
    if r.interrupted {
        labels.push(Label::new(
            w / 2.0,
            note_y,
            12.0,
            "middle",
            format!("partial: interrupted after {} of {} games", r.games, r.games_requested),
        ));
    }

    // Left: the length histogram.
    let (x0, pw) = (90.0, 430.0);
    labels.push(Label::new(x0 + pw / 2.0, panel_y, 14.0, "middle", "Game length"));
    let most = r.length_histogram.iter().map(|b| b.2).max().unwrap_or(1).max(1);
    let bins = r.length_histogram.len().max(1) as f64;
    for (i, &(from, to, c)) in r.length_histogram.iter().enumerate() {
        let bw = pw / bins;
        let bh = ph * c as f64 / most as f64;
        shapes.push_str(&format!(
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#4878a8\"><title>{from}-{to} plies: {c} games</title></rect>\n",
            x0 + i as f64 * bw + 1.0,
            bottom - bh,
            (bw - 2.0).max(1.0),
            bh
        ));
    }
    shapes.push_str(&format!(
        "<line x1=\"{x0}\" y1=\"{bottom}\" x2=\"{}\" y2=\"{bottom}\" stroke=\"black\"/>\n<line x1=\"{x0}\" y1=\"{top}\" x2=\"{x0}\" y2=\"{bottom}\" stroke=\"black\"/>\n",
        x0 + pw
    ));
    let most_text = most.to_string();
    labels.push(Label::new(x0 - 6.0, top + 4.0, 12.0, "end", most_text.clone()));
    labels.push(Label::new(x0 - 6.0, bottom + 4.0, 12.0, "end", "0"));
    labels.push(Label {
        vertical: true,
        ..Label::new(x0 - 16.0 - text_width(&most_text, 12.0), top + ph / 2.0, 12.0, "middle", "games")
    });
    if let (Some(first), Some(last)) = (r.length_histogram.first(), r.length_histogram.last()) {
        labels.push(Label::new(x0, tick_y, 12.0, "start", first.0.to_string()));
        labels.push(Label::new(x0 + pw, tick_y, 12.0, "end", last.1.to_string()));
    }
    labels.push(Label::new(x0 + pw / 2.0, axis_y, 12.0, "middle", "length of the game (plies)"));
    labels.push(Label::new(
        x0 + pw / 2.0,
        summary_y,
        12.0,
        "middle",
        format!(
            "mean {:.1}, median {:.1}, 90th percentile {}",
            r.length.mean, r.length.median, r.length.p90
        ),
    ));

    // Right: results by seat, with their intervals.
    let (x1, pw1) = (620.0, 250.0);
    labels.push(Label::new(x1 + pw1 / 2.0, panel_y, 14.0, "middle", "Results by seat, 95% interval"));
    for (share, text) in [(0.0, "0%"), (0.5, "50%"), (1.0, "100%")] {
        let y = bottom - ph * share;
        labels.push(Label::new(x1 - 6.0, y + 4.0, 12.0, "end", text));
        shapes.push_str(&format!(
            "<line x1=\"{x1}\" y1=\"{y:.1}\" x2=\"{}\" y2=\"{y:.1}\" stroke=\"#dddddd\"/>\n",
            x1 + pw1
        ));
    }
    labels.push(Label {
        vertical: true,
        ..Label::new(
            x1 - 16.0 - text_width("100%", 12.0),
            top + ph / 2.0,
            12.0,
            "middle",
            "share of games",
        )
    });
    let bars = [
        ("south wins", &r.win_rate.south, "#c0504d"),
        ("north wins", &r.win_rate.north, "#4f81bd"),
        ("draws", &r.draw_rate, "#9bbb59"),
    ];
    let bw = pw1 / bars.len() as f64;
    for (i, (name, sh, colour)) in bars.iter().enumerate() {
        let x = x1 + i as f64 * bw;
        let bh = ph * sh.rate;
        shapes.push_str(&format!(
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{colour}\"/>\n",
            x + 8.0,
            bottom - bh,
            bw - 16.0,
            bh
        ));
        let (lo, hi) = (bottom - ph * sh.ci95[0], bottom - ph * sh.ci95[1]);
        let cx = x + bw / 2.0;
        shapes.push_str(&format!(
            "<line x1=\"{cx:.1}\" y1=\"{lo:.1}\" x2=\"{cx:.1}\" y2=\"{hi:.1}\" stroke=\"black\"/>\n<line x1=\"{:.1}\" y1=\"{lo:.1}\" x2=\"{:.1}\" y2=\"{lo:.1}\" stroke=\"black\"/>\n<line x1=\"{:.1}\" y1=\"{hi:.1}\" x2=\"{:.1}\" y2=\"{hi:.1}\" stroke=\"black\"/>\n",
            cx - 6.0,
            cx + 6.0,
            cx - 6.0,
            cx + 6.0
        ));
        labels.push(Label::new(cx, tick_y, 12.0, "middle", *name));
        // Above the bar and its interval, which at most reach `top`: the label stays in its band.
        labels.push(Label::new(cx, (bottom - bh).min(hi) - 6.0, 12.0, "middle", pct(sh.rate)));
    }
    shapes.push_str(&format!(
        "<line x1=\"{x1}\" y1=\"{bottom}\" x2=\"{}\" y2=\"{bottom}\" stroke=\"black\"/>\n<line x1=\"{x1}\" y1=\"{top}\" x2=\"{x1}\" y2=\"{bottom}\" stroke=\"black\"/>\n",
        x1 + pw1
    ));
    labels.push(Label::new(x1 + pw1 / 2.0, axis_y, 12.0, "middle", "result of the game"));

    let mut s = format!(
        "{PLOT_MARK} -->\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    s.push_str(&shapes);
    for l in &labels {
        s.push_str(&l.svg());
    }
    s.push_str("</svg>\n");
    s
}
