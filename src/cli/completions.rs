//! `reversi completions SHELL` and `reversi man`: shell completions (clap_complete) and
//! manual pages (clap_mangen), generated from the command line's own definition.

use std::io;
use std::path::PathBuf;

use clap::CommandFactory;
use clap_complete::Shell;

use super::{exit, output, Cli};

/// Print a shell completion script (installation: the `Completions` command's help).
#[derive(Debug, clap::Args)]
pub(crate) struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    shell: Shell,
    /// Output file, replaced only when complete; `-` (the default) writes standard output.
    #[arg(short, long, default_value = "-")]
    output: PathBuf,
}

/// Print the manual page, or write one page per command into a directory.
#[derive(Debug, clap::Args)]
pub(crate) struct ManArgs {
    /// Write every page into this directory instead of the main page to standard output.
    #[arg(long, value_name = "DIR", conflicts_with = "output")]
    dir: Option<PathBuf>,
    /// Write the main page to this file, replaced only when complete; `-` (the default)
    /// writes standard output.
    #[arg(short, long, default_value = "-")]
    output: PathBuf,
}

/// Generates the script in memory (clap_complete panics on a failed write), then writes it
/// whole: a closed standard output ends quietly, other errors name the output.
pub(crate) fn completions(args: CompletionsArgs) -> io::Result<u8> {
    let mut cmd = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "reversi", &mut script);
    let written = output::write_whole(&args.output, &[], &script);
    output::finish_whole(&args.output, written, exit::OK)
}

pub(crate) fn man(args: ManArgs) -> io::Result<u8> {
    let cmd = Cli::command();
    let Some(dir) = args.dir else {
        let mut page = Vec::new();
        clap_mangen::Man::new(cmd).render(&mut page)?;
        let written = output::write_whole(&args.output, &[], &page);
        return output::finish_whole(&args.output, written, exit::OK);
    };
    std::fs::create_dir_all(&dir)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
    let mut pages = vec![("reversi".to_string(), cmd.clone())];
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = format!("reversi-{}", sub.get_name());
        let page = sub
            .clone()
            .display_name(name.clone())
            .bin_name(format!("reversi {}", sub.get_name()))
            .version(env!("CARGO_PKG_VERSION"));
        pages.push((name, page));
    }
    for (name, page) in pages {
        let path = dir.join(format!("{name}.1"));
        let mut text = Vec::new();
        clap_mangen::Man::new(page).render(&mut text)?;
        output::write_whole(&path, &[], &text)?;
    }
    Ok(exit::OK)
}
