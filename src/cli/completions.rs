//! `reversi completions SHELL` and `reversi man`: shell completions (clap_complete) and
//! manual pages (clap_mangen), generated from the command line's own definition.

use std::io::{self, Write};
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
}

/// Print the manual page, or write one page per command into a directory.
#[derive(Debug, clap::Args)]
pub(crate) struct ManArgs {
    /// Write every page into this directory instead of the main page to standard output.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

pub(crate) fn completions(args: CompletionsArgs) -> io::Result<u8> {
    let mut cmd = Cli::command();
    let mut out = io::stdout().lock();
    clap_complete::generate(args.shell, &mut cmd, "reversi", &mut out);
    out.flush()?;
    Ok(exit::OK)
}

pub(crate) fn man(args: ManArgs) -> io::Result<u8> {
    let cmd = Cli::command();
    let Some(dir) = args.dir else {
        let mut out = io::stdout().lock();
        clap_mangen::Man::new(cmd).render(&mut out)?;
        out.flush()?;
        return Ok(exit::OK);
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
        output::write_whole(&path.to_string_lossy(), &[], &text)?;
    }
    Ok(exit::OK)
}
