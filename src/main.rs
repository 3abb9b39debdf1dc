//! The `sowlang` command: parse the arguments and hand over to the library's CLI layer.

fn main() -> std::process::ExitCode {
    sowlang::cli_main()
}
