//! The one reader of every file the tool is given (board JSON, adjacency and layout CSV,
//! pictures, race rules files).
//!
//! A user can name anything as an input: a device (`/dev/zero` never ends), a FIFO (blocks
//! until someone writes), a directory, or a huge file. So the kind is checked before the
//! file is opened, and at most `MAX_INPUT_BYTES + 1` bytes are read, whatever the file
//! claims its size to be (it may grow while being read). Each file read is remembered, so
//! that the writer never replaces an input of the run by an output.

use std::io::Read;
use std::path::Path;
use std::sync::Mutex;

/// The largest input file read: 1 MiB. The largest shipped board file is a few KB; a
/// 64-hole board with long names stays far below this.
pub const MAX_INPUT_BYTES: u64 = 1 << 20;

/// The text of the regular file at `path`, or why it cannot be read, in words meant to
/// follow the file's name ("not a regular file (a FIFO)").
pub fn read_input(path: &Path) -> Result<String, String> {
    utf8_text(read_bytes(path, MAX_INPUT_BYTES)?)
}

/// The UTF-8 BOM that Windows editors (Notepad) may put at the start of a text file.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// A file's bytes as text, without the byte order mark an editor may have put first (it was
/// read as part of the first word: `"\u{feff}squares"`), or where the first byte that is not
/// UTF-8 lies in the file.
pub fn utf8_text(mut bytes: Vec<u8>) -> Result<String, String> {
    let skipped = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
    bytes.drain(..skipped);
    String::from_utf8(bytes).map_err(|e| {
        format!("not UTF-8 text (an invalid byte at offset {})", e.utf8_error().valid_up_to() + skipped)
    })
}

/// The bytes of the regular file at `path`, at most `max` of them, or why they cannot be
/// read (see `read_input`). The file is an input of this run from then on (see [`is_input`]).
pub fn read_bytes(path: &Path, max: u64) -> Result<Vec<u8>, String> {
    read_regular(path, max, true)
}

/// `read_bytes` of a save the run goes on from and then replaces by its own saves (a
/// checkpoint): not an input that a write must leave alone.
pub fn read_save(path: &Path, max: u64) -> Result<Vec<u8>, String> {
    read_regular(path, max, false)
}

/// The first `max` bytes of a save (fewer if it is shorter), so that a file that is not one
/// can be refused by its first line before the whole is read: a file of gigabytes given to
/// `--resume` by a slip was read whole into memory first.
pub fn read_save_head(path: &Path, max: u64) -> Result<Vec<u8>, String> {
    let (file, _) = open_regular(path, false)?;
    let mut bytes = Vec::new();
    file.take(max).read_to_end(&mut bytes).map_err(|e| format!("cannot read it: {}", plain(&e)))?;
    Ok(bytes)
}

/// The files read as inputs by this process, by device and inode (whatever path named them).
static INPUTS: Mutex<Vec<(u64, u64)>> = Mutex::new(Vec::new());

/// The file `path` names (following links), by device and inode; `None` where there is none.
fn identity(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|meta| (meta.dev(), meta.ino()))
}

/// Whether `path` names a file this process has read as an input (following links): a write
/// over it would destroy what the run was given (`--svg` naming the chain file, say).
pub fn is_input(path: &Path) -> bool {
    let Some(file) = identity(path) else { return false };
    let inputs = INPUTS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    inputs.contains(&file)
}

/// Whether two paths name one existing file, whatever links or hard links lead to it.
pub fn same_file(a: &Path, b: &Path) -> bool {
    identity(a).is_some_and(|file| identity(b) == Some(file))
}

/// The regular file at `path`, opened, and its length; its kind is checked before it is
/// opened. An `input` is remembered (see [`is_input`]).
fn open_regular(path: &Path, input: bool) -> Result<(std::fs::File, u64), String> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read it: {}", plain(&e)))?;
    if !meta.is_file() {
        return Err(format!("not a regular file ({}); only regular files are read", kind(&meta)));
    }
    if input {
        INPUTS.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push((meta.dev(), meta.ino()));
    }
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read it: {}", plain(&e)))?;
    Ok((file, meta.len()))
}

fn read_regular(path: &Path, max: u64, input: bool) -> Result<Vec<u8>, String> {
    let (file, len) = open_regular(path, input)?;
    if len > max {
        return Err(too_large(max));
    }
    let mut bytes = Vec::new();
    let read = file.take(max.saturating_add(1)).read_to_end(&mut bytes);
    read.map_err(|e| format!("cannot read it: {}", plain(&e)))?;
    if bytes.len() as u64 > max {
        return Err(too_large(max));
    }
    Ok(bytes)
}

/// The longest path the system opens (Linux's PATH_MAX, in bytes): a longer one names no file.
const LONGEST_PATH: usize = 4096;

/// `path` as a message names it: whole, unless it is longer than any path the system opens,
/// then its start and length (a name of 100,000 characters was echoed whole).
pub fn shown_path(path: &Path) -> String {
    let text = path.display().to_string();
    if text.len() > LONGEST_PATH { crate::engine::error::shortened(&text) } else { text }
}

/// `text` (a path, a name) as a line of text shows it: as it is, or in quotes with its
/// escapes where it holds a character that does not print (a path with a line break in it
/// broke the line it was shown in).
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    match text.contains(unprintable) {
        true => format!("{text:?}").into(),
        false => text.into(),
    }
}

/// An I/O error's message without Rust's "(os error 28)" suffix.
pub fn plain(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// A control character, or one of Unicode's format characters (category Cf): invisible, and
/// some reorder the text around them (U+202E, right-to-left override), so that a name holding
/// one is not the name it shows.
pub fn unprintable(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{AD}' | '\u{600}'..='\u{605}' | '\u{61C}' | '\u{6DD}' | '\u{70F}'
            | '\u{890}'..='\u{891}' | '\u{8E2}' | '\u{180E}' | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{206F}' | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}' | '\u{110BD}' | '\u{110CD}' | '\u{13430}'..='\u{1343F}'
            | '\u{1BCA0}'..='\u{1BCA3}' | '\u{1D173}'..='\u{1D17A}' | '\u{E0001}' | '\u{E0020}'..='\u{E007F}')
}

/// A parser's message made one line: messages may quote the input (serde names an unknown
/// field as written), and the input may hold line breaks or other control characters.
pub fn one_line(message: &str) -> String {
    message
        .chars()
        .map(|c| if c.is_control() { c.escape_debug().to_string() } else { c.to_string() })
        .collect()
}

fn too_large(max: u64) -> String {
    if max == MAX_INPUT_BYTES {
        format!("larger than the {max} bytes (1 MiB) an input file may hold")
    } else {
        format!("larger than the {max} bytes such a file may hold")
    }
}

/// What kind of file a non-regular file is, in words ("a FIFO").
pub fn kind(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// `text`, a JSON file a user wrote (a board file, race rules), read into `T`, or why not in
/// words that name the field and what it must be: "`die.faces[1].face` must be a whole number
/// of 0 or more, not the string \"1\" (line 3, column 20)", where serde says "invalid type:
/// string \"1\", expected u32 at line 3 column 20" of no field.
pub fn json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    let mut reader = serde_json::Deserializer::from_str(text);
    let value: T = serde_path_to_error::deserialize(&mut reader).map_err(|e| {
        let inner = e.inner();
        match inner.classify() {
            serde_json::error::Category::Data => {
                let place = format!("line {}, column {}", inner.line(), inner.column());
                let why = data_fault(&inner.to_string());
                let mut fields: Vec<String> = e.path().iter().map(|field| field.to_string()).collect();
                if why.starts_with("unknown field") {
                    fields.pop(); // the unknown field itself, which the fault names
                }
                let field = fields.join(".").replace(".[", "[");
                match (why.starts_with("must be"), field.is_empty()) {
                    (true, true) => format!("the file {why} ({place})"),
                    (true, false) => format!("`{field}` {why} ({place})"),
                    (false, true) => format!("{why} ({place})"),
                    (false, false) => format!("in `{field}`: {why} ({place})"),
                }
            }
            _ => format!("invalid JSON: {inner}"),
        }
    })?;
    reader.end().map_err(|e| format!("invalid JSON: {e}"))?;
    Ok(value)
}

/// A serde data fault ("invalid type: string \"1\", expected u32 at line 1 column 9") in
/// words: "must be a whole number of 0 or more, not the string \"1\"". The types are serde's
/// names, put plainly; faults of another form keep serde's words, without the place.
fn data_fault(serde: &str) -> String {
    let text = serde.rsplit_once(" at line ").map_or(serde, |(text, _)| text);
    let plain = |expected: &str| match expected {
        "u8" | "u16" | "u32" | "u64" | "usize" => "a whole number of 0 or more".to_string(),
        "i8" | "i16" | "i32" | "i64" | "isize" => "a whole number".to_string(),
        "f32" | "f64" | "a JSON number" => "a number".to_string(),
        "a sequence" => "a list".to_string(),
        "a map" => "an object".to_string(),
        e if e.starts_with("struct ") => "an object".to_string(),
        e => e.to_string(),
    };
    let found = |unexpected: &str| {
        let value = unexpected.replace('`', "");
        match value.split_once(' ') {
            Some(("string", _)) => format!("the {value}"),
            Some(("integer" | "boolean", shown)) => shown.to_string(),
            Some(("floating", shown)) => shown.trim_start_matches("point ").to_string(),
            _ => match value.as_str() {
                "sequence" => "a list".to_string(),
                "map" => "an object".to_string(),
                "unit value" => "null".to_string(),
                _ => value,
            },
        }
    };
    // A whole number out of the field's range was "not a whole number" (300 for a u8; a float
    // that is whole, as serde reads 18446744073709551616): the range is named instead.
    let range = |expected: &str| {
        Some(match expected {
            "u8" => "0 to 255",
            "u16" => "0 to 65535",
            "u32" => "0 to 4294967295",
            "u64" | "usize" => "0 to 18446744073709551615",
            "i32" => "-2147483648 to 2147483647",
            "i64" | "isize" => "-9223372036854775808 to 9223372036854775807",
            _ => return None,
        })
    };
    let whole = |unexpected: &str| {
        let value = unexpected.replace('`', "");
        let number = value.strip_prefix("integer ").or_else(|| value.strip_prefix("floating point "))?;
        number.parse::<f64>().ok().filter(|v| v.fract() == 0.0).map(|_| number.to_string())
    };
    for kind in ["invalid type: ", "invalid value: "] {
        if let Some((unexpected, expected)) =
            text.strip_prefix(kind).and_then(|t| t.split_once(", expected "))
        {
            if let (Some(range), Some(number)) = (range(expected), whole(unexpected)) {
                return format!("must be a whole number from {range}, not {number}");
            }
            return format!("must be {}, not {}", plain(expected), found(unexpected));
        }
    }
    if let Some((length, expected)) =
        text.strip_prefix("invalid length ").and_then(|t| t.split_once(", expected "))
    {
        let items = if length == "1" { "item" } else { "items" };
        return format!("must be {}, not a list of {length} {items}", plain(expected));
    }
    text.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A user's JSON file is faulted by field, in plain words; serde's own words are kept
    /// for faults of another form.
    #[test]
    fn json_faults_name_the_field_in_plain_words() {
        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Die {
            sides: u32,
            faces: Vec<Face>,
        }
        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Face {
            face: i64,
            name: Option<String>,
        }
        let fault = |text: &str| json::<Die>(text).unwrap_err();
        let cases = [
            (
                r#"{"sides": "6", "faces": []}"#,
                "`sides` must be a whole number of 0 or more, not the string \"6\" (line 1, column 13)",
            ),
            (
                r#"{"sides": -6, "faces": []}"#,
                "`sides` must be a whole number from 0 to 4294967295, not -6 (line 1, column 12)",
            ),
            (
                r#"{"sides": 18446744073709551616, "faces": []}"#,
                "`sides` must be a whole number from 0 to 4294967295, not 1.8446744073709552e+19 (line 1, column 30)",
            ),
            (
                r#"{"sides": 6, "faces": [{"face": 1}, {"face": 1.5}]}"#,
                "`faces[1].face` must be a whole number, not 1.5 (line 1, column 48)",
            ),
            (
                r#"{"sides": 6, "faces": [{"face": 1, "name": true}]}"#,
                "`faces[0].name` must be a string, not true (line 1, column 47)",
            ),
            (r#"{"sides": 6, "faces": {}}"#, "`faces` must be a list, not an object (line 1, column 22)"),
            (
                r#"{"sides": 6, "faces": [null]}"#,
                "`faces[0]` must be an object, not null (line 1, column 27)",
            ),
            ("[6]", "the file must be an object, not a list of 1 item (line 1, column 3)"),
            (r#"{"sides": 6}"#, "missing field `faces` (line 1, column 12)"),
            (
                r#"{"sides": 6, "faces": [{"face": 1, "colour": 2}]}"#,
                "in `faces[0]`: unknown field `colour`, expected `face` or `name` (line 1, column 43)",
            ),
            (r#"{"sides": 6, "faces": []} x"#, "invalid JSON: trailing characters at line 1 column 27"),
            (r#"{"sides": 6, "faces": ["#, "invalid JSON: EOF while parsing a list at line 1 column 23"),
        ];
        for (text, why) in cases {
            assert_eq!(fault(text), why, "{text}");
        }
        assert_eq!(json::<Die>(r#"{"sides": 6, "faces": [{"face": -1}]}"#).unwrap().faces[0].face, -1);
    }

    #[test]
    fn quoted_line_breaks_are_escaped() {
        assert_eq!(one_line("unknown field `sw\ne`\t"), "unknown field `sw\\ne`\\t");
    }

    #[test]
    fn devices_and_directories_are_refused_before_reading() {
        let why = read_input(Path::new("/dev/zero")).unwrap_err();
        assert_eq!(why, "not a regular file (a character device); only regular files are read");
        let why = read_input(Path::new("/")).unwrap_err();
        assert!(why.contains("(a directory)"), "{why}");
    }

    #[test]
    fn large_and_binary_files_are_refused() {
        let dir = std::env::temp_dir().join(format!("pegchain-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let big = dir.join("big.txt");
        std::fs::write(&big, vec![b'a'; (MAX_INPUT_BYTES + 1) as usize]).unwrap();
        assert!(read_input(&big).unwrap_err().starts_with("larger than the 1048576 bytes"));
        let exact = dir.join("exact.txt");
        std::fs::write(&exact, vec![b'a'; MAX_INPUT_BYTES as usize]).unwrap();
        assert_eq!(read_input(&exact).unwrap().len(), MAX_INPUT_BYTES as usize);
        let binary = dir.join("binary.txt");
        std::fs::write(&binary, b"ab\xff").unwrap();
        assert_eq!(read_input(&binary).unwrap_err(), "not UTF-8 text (an invalid byte at offset 2)");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
