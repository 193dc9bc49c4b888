//! `chuhan book compile|dump|build|generate|probe`: convert, build, generate and inspect
//! opening books.

use crate::hms::hms;
use crate::unit_args::{Mode, UnitArgs};
use chuhan_arena::book_generator::plan::{
    Plan as BookPlan, PlanFile, Settings as BookSettings, UnitPlan,
};
use chuhan_arena::book_generator::unit::{self as book_unit, Merged as BookMerged, Played};
use chuhan_arena::book_generator::{self, GenerateOptions};
use chuhan_engine::book::{
    Book, BookBuilder, BookSet, BuildOptions, OwnBook, eleeye, fold, params, text,
};
use chuhan_engine::core::{Position, Validation};
use chuhan_engine::notation::record;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Arguments of `chuhan book`.
#[derive(clap::Args, Debug)]
pub struct BookArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: BookCommand,
}

/// The `chuhan book` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum BookCommand {
    /// Compile a text book (`BOARD SIDE MOVE WEIGHT [W D L]` lines) into a binary book.
    Compile {
        /// The text book.
        text: PathBuf,
        /// The binary book to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Write a Chuhan book (binary or text) as canonical text.
    Dump {
        /// The book.
        book: PathBuf,
        /// Where to write the text (default: standard output).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Build a binary book from game records (PGN, XQF, CCBridge, or move lists one game per
    /// line), each file's kind recognised from its bytes and its name.
    Build {
        /// Game record files (a `.pgn` name is read as PGN whatever its text).
        #[arg(long, num_args = 1.., required = true)]
        from: Vec<PathBuf>,
        /// The binary book to write.
        #[arg(long)]
        out: PathBuf,
        /// Use only the first N plies of each game.
        #[arg(long, default_value_t = params::DEFAULT_MAX_PLY)]
        max_ply: u32,
        /// Keep a move only if at least K games played it.
        #[arg(long, default_value_t = params::DEFAULT_MIN_GAMES)]
        min_games: u32,
    },
    /// Grow a book from Chuhan's own searches: from the start position, the best
    /// few replies of every position, ply by ply (or as work units for a cluster:
    /// --plan, --unit, --merge).
    Generate(Box<GenerateArgs>),
    /// List the book moves of a position, from one or more books of any format.
    Probe {
        /// Book files (Chuhan binary or text, ElephantEye BOOK.DAT).
        #[arg(required = true)]
        books: Vec<PathBuf>,
        /// The position in FEN (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play from that position first, in any notation (ICCS `h2e2`,
        /// WXF `C2.5`, Chinese 炮二平五).
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
    },
}

/// Arguments of `chuhan book generate`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("mode").args(["plan", "unit", "merge"])))]
pub struct GenerateArgs {
    /// Search positions up to this many plies deep.
    #[arg(long, required_unless_present_any = ["unit", "merge"])]
    pub plies: Option<u32>,
    /// Search depth per position.
    #[arg(long, required_unless_present_any = ["unit", "merge"])]
    pub depth: Option<i32>,
    /// Search the positions of the first N plies to --deep-depth instead (the first
    /// moves are few and decide most games: worth a deeper search).
    #[arg(long, default_value_t = 0, value_name = "N", requires = "deep_depth")]
    pub deep_plies: u32,
    /// Search depth of the first --deep-plies plies.
    #[arg(long, value_name = "D", requires = "deep_plies")]
    pub deep_depth: Option<i32>,
    /// The binary book to write (with --unit: the directory of the unit files).
    #[arg(long, required_unless_present = "plan")]
    pub out: Option<PathBuf>,
    /// At most this many different replies per position.
    #[arg(long, default_value_t = params::DEFAULT_GENERATE_WIDTH)]
    pub width: usize,
    /// Leave out replies more than this many centipawns below the best.
    #[arg(long, default_value_t = params::DEFAULT_GENERATE_MARGIN_CP)]
    pub margin: i32,
    /// Stop after searching this many positions (the most likely ones first).
    #[arg(long)]
    pub max_positions: Option<usize>,
    /// Positions searched at once (the book does not depend on it).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Hash size per search thread in MB.
    #[arg(long, default_value_t = params::DEFAULT_GENERATE_HASH_MB)]
    pub hash: usize,
    /// `--plan`, `--unit` and `--merge`.
    #[command(flatten)]
    pub units: UnitArgs,
    /// Positions per work unit of --plan.
    #[arg(long, default_value_t = 8, value_name = "N")]
    pub positions_per_unit: u32,
}

/// Runs a `chuhan book` subcommand.
pub fn run(args: &BookArgs) -> ExitCode {
    let result = match &args.command {
        BookCommand::Compile { text, out } => compile(text, out),
        BookCommand::Dump { book, out } => dump(book, out.as_deref()),
        BookCommand::Build {
            from,
            out,
            max_ply,
            min_games,
        } => build(
            from,
            out,
            BuildOptions {
                max_ply: *max_ply,
                min_games: *min_games,
            },
        ),
        BookCommand::Generate(args) => return generate(args),
        BookCommand::Probe { books, fen, moves } => probe(books, fen.as_deref(), moves),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    chuhan_engine::data_file::read(path, chuhan_engine::data_file::MAX_BOOK_BYTES)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes `book` to `out` through a temporary file renamed into place, so that an
/// engine reading `out` meanwhile never sees half a book.
fn write_book(book: &OwnBook, out: &Path) -> Result<usize, String> {
    let bytes = book.to_bytes();
    let mut tmp = out.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, &bytes)
        .and_then(|()| std::fs::rename(&tmp, out))
        .map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(bytes.len())
}

fn compile(input: &Path, out: &Path) -> Result<(), String> {
    let data = read(input)?;
    let source = std::str::from_utf8(&data)
        .map_err(|e| format!("{}: not UTF-8 text ({e})", input.display()))?;
    let book = text::parse(source).map_err(|e| format!("{}: {e}", input.display()))?;
    let size = write_book(&book, out)?;
    println!(
        "{}: {} moves in {} positions, {size} bytes",
        out.display(),
        book.move_count(),
        book.position_count()
    );
    Ok(())
}

fn dump(input: &Path, out: Option<&Path>) -> Result<(), String> {
    let book = Book::from_bytes(&read(input)?).map_err(|e| format!("{}: {e}", input.display()))?;
    let Some(own) = book.own() else {
        return Err(format!(
            "{}: an ElephantEye BOOK.DAT stores 32-bit locks, not positions, so it cannot \
             be dumped; use `chuhan book probe` to query it",
            input.display()
        ));
    };
    let text = text::write(own);
    match out {
        Some(path) => std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display())),
        None => std::io::stdout()
            .lock()
            .write_all(text.as_bytes())
            .map_err(|e| format!("standard output: {e}")),
    }
}

/// A progress bar on standard error, drawn only when it is a terminal and at most
/// ten times a second.
struct Progress {
    enabled: bool,
    last: Option<Instant>,
}

impl Progress {
    fn new() -> Progress {
        Progress {
            enabled: std::io::stderr().is_terminal(),
            last: None,
        }
    }

    fn show(&mut self, fraction: f64, games: u64, force: bool) {
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        if !force
            && self
                .last
                .is_some_and(|t| now - t < Duration::from_millis(100))
        {
            return;
        }
        self.last = Some(now);
        let width = 40;
        let filled = ((fraction.clamp(0.0, 1.0) * width as f64) as usize).min(width);
        eprint!(
            "\r[{}{}] {:5.1}%  {games} games",
            "#".repeat(filled),
            "-".repeat(width - filled),
            fraction * 100.0
        );
    }

    fn finish(&mut self) {
        if self.enabled && self.last.is_some() {
            eprintln!();
        }
    }
}

fn build(files: &[PathBuf], out: &Path, options: BuildOptions) -> Result<(), String> {
    const SHOWN_PROBLEMS: usize = 20;
    crate::output::check_writable(out)?;
    let sizes: Vec<u64> = files
        .iter()
        .map(|f| {
            std::fs::metadata(f)
                .map(|m| m.len().max(1))
                .map_err(|e| format!("{}: {e}", f.display()))
        })
        .collect::<Result<_, _>>()?;
    let total: u64 = sizes.iter().sum();
    let mut builder = BookBuilder::new(options);
    let mut progress = Progress::new();
    let mut problems = 0usize;
    let mut warned = 0usize;
    let mut shown = 0usize;
    let mut done = 0u64;
    let mut show = |msg: String| {
        shown += 1;
        if shown <= SHOWN_PROBLEMS {
            eprintln!("warning: {msg}");
        }
    };
    for (file, &size) in files.iter().zip(&sizes) {
        let data = read(file)?;
        let items = record::read_items(&data, Some(file), Validation::Lenient);
        let n = items.len().max(1);
        for (i, item) in items.iter().enumerate() {
            let place = format!("{}{}", file.display(), item.place);
            match &item.game {
                Ok(game) => match builder.add_game(game) {
                    Ok(()) => {
                        warned += usize::from(!game.warnings.is_empty());
                        for w in &game.warnings {
                            show(format!("{place}: {w}"));
                        }
                    }
                    Err(e) => {
                        problems += 1;
                        show(format!("{place}: {e}"));
                    }
                },
                Err(e) => {
                    problems += 1;
                    show(format!("{place}: {e}"));
                }
            }
            let fraction = (done as f64 + size as f64 * (i + 1) as f64 / n as f64) / total as f64;
            progress.show(fraction, builder.games(), false);
        }
        done += size;
    }
    progress.show(1.0, builder.games(), true);
    progress.finish();
    if shown > SHOWN_PROBLEMS {
        eprintln!("warning: ... and {} more", shown - SHOWN_PROBLEMS);
    }
    let games = builder.games();
    let book = builder.finish();
    let size = write_book(&book, out)?;
    println!(
        "{}: {games} games ({problems} with problems, {warned} read with warnings), {} moves in {} positions, {size} bytes",
        out.display(),
        book.move_count(),
        book.position_count()
    );
    Ok(())
}

fn generate_book(options: &GenerateOptions, out: &Path) -> Result<(), String> {
    crate::output::check_writable(out)?;
    let started = Instant::now();
    let terminal = std::io::stderr().is_terminal();
    let mut last: Option<Instant> = None;
    let mut last_ply = None;
    let every = if terminal {
        Duration::from_millis(200)
    } else {
        Duration::from_secs(30)
    };
    let report = |p: &book_generator::Progress| {
        let now = Instant::now();
        let ply_done = p.done_in_ply == p.ply_size;
        if !ply_done && last_ply == Some(p.ply) && last.is_some_and(|t| now - t < every) {
            return;
        }
        last = Some(now);
        last_ply = Some(p.ply);
        let elapsed = started.elapsed();
        let left = p.budget.map_or(String::new(), |b| {
            let per = elapsed.as_secs_f64() / p.searched.max(1) as f64;
            let rest = b.saturating_sub(p.searched) as f64 * per;
            format!(", about {} left", hms(Duration::from_secs_f64(rest)))
        });
        let line = format!(
            "ply {}: {}/{} | searched {}{} | {} Mnodes | {} elapsed{left}",
            p.ply,
            p.done_in_ply,
            p.ply_size,
            p.searched,
            p.budget.map_or(String::new(), |b| format!("/{b}")),
            p.nodes / 1_000_000,
            hms(elapsed),
        );
        if terminal {
            eprint!("\r{line}\x1b[K");
            if ply_done {
                eprintln!();
            }
        } else {
            eprintln!("{line}");
        }
    };
    let generated = book_generator::generate(&Position::startpos(), options, report)
        .map_err(|e| e.to_string())?;
    let size = write_book(&generated.book, out)?;
    println!(
        "{}, {}",
        generated_line(out, &generated, options, size),
        hms(started.elapsed())
    );
    Ok(())
}

/// `book.bin: 37 positions searched to depth 8 over 4 plies, 70 moves in 37
/// positions, 1234 bytes, 12 Mnodes`: what a generation made (the local run adds
/// its time).
fn generated_line(
    out: &Path,
    generated: &book_generator::Generated,
    options: &GenerateOptions,
    size: usize,
) -> String {
    format!(
        "{}: {} positions searched to {} over {} plies, {} moves in {} positions, \
         {size} bytes, {} Mnodes",
        out.display(),
        generated.searched,
        depth_text(options),
        generated.plies_reached,
        generated.book.move_count(),
        generated.book.position_count(),
        generated.nodes / 1_000_000,
    )
}

/// `depth 9`, or `depth 9 (16 in the first 2 plies)`.
fn depth_text(options: &GenerateOptions) -> String {
    if options.deep_plies == 0 {
        format!("depth {}", options.depth)
    } else {
        let plies = if options.deep_plies == 1 {
            "ply"
        } else {
            "plies"
        };
        format!(
            "depth {} ({} in the first {} {plies})",
            options.depth, options.deep_depth, options.deep_plies
        )
    }
}

/// `chuhan book generate`: locally, or one of --plan, --unit, --merge. Exit status
/// 0 done, 1 a unit could not be searched, 2 bad arguments or files, 3 a merge
/// that needs another ply searched.
fn generate(args: &GenerateArgs) -> ExitCode {
    let fail = |message: String| {
        eprintln!("error: {message}");
        ExitCode::from(2)
    };
    let mode = args.units.mode();
    if let Mode::Unit { .. } = mode {
        return generate_unit(args);
    }
    if let Mode::Merge(dir) = mode {
        let Some(out) = &args.out else {
            return fail("--merge needs --out BOOK".into());
        };
        return match merge_units(dir, out) {
            Ok(code) => code,
            Err(e) => fail(e),
        };
    }
    let (Some(plies), Some(depth)) = (args.plies, args.depth) else {
        return fail("give --plies and --depth".into());
    };
    let options = GenerateOptions {
        plies,
        depth,
        deep_plies: args.deep_plies,
        deep_depth: args.deep_depth.unwrap_or(depth),
        width: args.width,
        margin: args.margin,
        max_positions: args.max_positions,
        threads: args.threads,
        hash_mb: args.hash,
    };
    let result = match (mode, &args.out) {
        (Mode::Plan(plan), _) => write_generate_plan(&options, args.positions_per_unit, plan),
        (_, Some(out)) => generate_book(&options, out),
        (_, None) => Err("give --out BOOK".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(e),
    }
}

/// `--plan FILE`: the first ply of the generation as work units.
fn write_generate_plan(
    options: &GenerateOptions,
    positions_per_unit: u32,
    path: &Path,
) -> Result<(), String> {
    options.check().map_err(|e| e.to_string())?;
    let settings = BookSettings::new(&Position::startpos(), options, positions_per_unit);
    let plan = BookPlan::new(settings).map_err(|e| e.to_string())?;
    plan.write(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    println!(
        "{}: book plan {}, ply 0 of {}: {}, units of up to {} positions ({}, width {}, margin {})",
        path.display(),
        plan.run_id,
        options.plies,
        plural(plan.positions.len(), "position"),
        positions_per_unit,
        depth_text(options),
        options.width,
        options.margin
    );
    Ok(())
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// `--unit PLAN K --out DIR`: searches one unit. Exit status 0 when its file is
/// written (or was there), 1 when it could not be searched, 2 bad arguments.
fn generate_unit(args: &GenerateArgs) -> ExitCode {
    let fail = |message: String| {
        eprintln!("error: {message}");
        ExitCode::from(2)
    };
    let (plan, k, dir) = match args.units.open_unit::<BookPlan>(args.out.as_deref()) {
        Ok(opened) => opened,
        Err(e) => return fail(e),
    };
    let dir = dir.as_path();
    match book_unit::play(&plan, k, dir, args.threads) {
        Ok(played) => {
            let file = plan.unit_path(dir, k);
            let what = match played {
                Played::Written => "searched",
                Played::AlreadyThere => "already searched",
            };
            println!("{}: unit {k} of ply {} {what}", file.display(), plan.ply);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: unit {k}: {e}");
            ExitCode::from(1)
        }
    }
}

/// `--merge DIR --out BOOK`: the book when every ply is searched, else the plan
/// of the next ply in DIR/next.json (exit status 3).
fn merge_units(dir: &Path, out: &Path) -> Result<ExitCode, String> {
    crate::output::check_writable(out)?;
    let plan_path = dir.join("plan.json");
    let plan = BookPlan::read(&plan_path).map_err(|e| format!("{}: {e}", plan_path.display()))?;
    match book_unit::merge(&plan.settings, dir).map_err(|e| e.to_string())? {
        BookMerged::Finished(generated) => {
            let size = write_book(&generated.book, out)?;
            // A plan left from the last round would only mislead.
            let _ = std::fs::remove_file(dir.join(book_unit::NEXT_PLAN));
            println!(
                "{}",
                generated_line(out, &generated, &plan.settings.options(1), size)
            );
            Ok(ExitCode::SUCCESS)
        }
        BookMerged::Next {
            plan: next,
            done,
            searched,
        } => {
            let path = dir.join(book_unit::NEXT_PLAN);
            next.write(&path)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            println!(
                "{}: ply {} of {}: {} in {}, {} done; {} searched before it",
                path.display(),
                next.ply,
                next.settings.plies,
                plural(next.positions.len(), "position"),
                plural(next.units.len(), "unit"),
                done.len(),
                plural(searched, "position"),
            );
            Ok(ExitCode::from(3))
        }
    }
}

fn probe(files: &[PathBuf], fen: Option<&str>, moves: &[String]) -> Result<(), String> {
    let line =
        chuhan_engine::notation::replay(fen, moves, chuhan_engine::core::Validation::Lenient)
            .map_err(|e| e.to_string())?;
    crate::position_arg::warn(&line.warnings);
    let pos = line.position;
    let f = fold(&pos);
    println!("position {}", pos.to_fen());
    println!(
        "key {:016x}  folded {:016x}{}  ElephantEye lock {:08x}",
        pos.key(),
        f.key,
        if f.mirrored { " (mirrored)" } else { "" },
        eleeye::lock(&pos)
    );
    let mut set = BookSet::new();
    for file in files {
        let book = Book::open(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let found = book.probe(&pos);
        println!(
            "{} ({}, {} entries): {} found",
            file.display(),
            book.format(),
            book.len(),
            found.len()
        );
        for b in found {
            match b.wdl {
                Some(w) => println!(
                    "  {} {:>8}  +{} ={} -{}",
                    b.mv, b.weight, w.wins, w.draws, w.losses
                ),
                None => println!("  {} {:>8}", b.mv, b.weight),
            }
        }
        set.push(book);
    }
    let playable = set.candidates(&pos, &[]);
    match playable.first() {
        Some(b) => println!("book move (randomness none): {}", b.mv),
        None => println!("no playable book move"),
    }
    Ok(())
}
