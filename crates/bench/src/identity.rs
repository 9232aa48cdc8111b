//! Drive identity: which drive a vendor, model, capacity or part number names, as people
//! and operating systems write them ("Samsung SSD 990 PRO 2TB", "CT500P2SSD8",
//! "PLEXTOR PX-256M2S", "Crucial P2 2TB @ PCIe 2.0 x2", full-width or Cyrillic
//! look-alike letters).
//!
//! A drive is known under **keys**, which the database keeps in `drive_aliases`:
//! - `n:VENDOR|MODEL|GB`, its name: the vendor's canonical short name, the model line's
//!   words without the vendor's own words and the word "SSD" (joined without spaces),
//!   the capacity in decimal GB;
//! - `p:COMPACT`, a string written without spaces or punctuation: the part number, the
//!   model with its capacity (`p2500gb`), vendor + model + capacity, and every alias
//!   (with and without its vendor). Drive search as you type is a prefix range over these.
//!
//! A submission's drive tag is looked up by the same keys ([`Identity::lookup_keys`]): an
//! exact key first, then the same strings without a trailing firmware or revision suffix.
//! [`LAYOUT`] names these rules: the database rebuilds its keys when it changes.

use crate::folding::display_char;
pub use crate::folding::{compact, fold};
use crate::{lines, DriveSku, DriveTag};

/// The version of the key rules. The store rebuilds every drive's keys at start-up when
/// the stored keys were made by other rules.
pub const LAYOUT: &str = "identity-3";

/// Longest vendor, model or part number accepted, in characters.
pub const MAX_LEN: usize = 100;

/// Why a drive tag cannot be an identity: the message and the tag field it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Junk {
    pub field: &'static str,
    pub detail: String,
}

/// A capacity written as one word or a number and its unit: "2TB", "2 TB", "2000GB",
/// "1.92 TB", "1920 GB", "500G", "256gb". In decimal GB, as makers rate drives.
fn capacity_of(words: &[&str], i: usize) -> Option<(u32, usize)> {
    let unit_gb = |u: &str| match u {
        "gb" | "g" => Some(1.0),
        "tb" | "t" => Some(1000.0),
        _ => None,
    };
    let number = |t: &str| -> Option<f64> {
        (!t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || c == '.')).then(|| t.parse().ok()).flatten()
    };
    let w = words[i];
    let split = w.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(w.len());
    let (n, unit, used) = if split == w.len() {
        (number(w)?, unit_gb(words.get(i + 1)?)?, 2)
    } else {
        (number(&w[..split])?, unit_gb(&w[split..])?, 1)
    };
    let gb = (n * unit).round();
    (1.0..=1_000_000.0).contains(&gb).then_some((gb as u32, used))
}

/// The first capacity written in `s`, in decimal GB.
pub fn capacity_in(s: &str) -> Option<u32> {
    let folded = fold(s);
    let words: Vec<&str> = folded.split(' ').collect();
    (0..words.len()).find_map(|i| capacity_of(&words, i)).map(|(gb, _)| gb)
}

/// The vendor words `words` start with: (the vendor's key, how many words), by the
/// vendor table of `data/drive_lines.json` (`lines::Table::vendor_at_start`).
fn vendor_at_start(words: &[&str]) -> Option<(&'static str, usize)> {
    lines::table().vendor_at_start(words).map(|(v, n)| (v.key.as_str(), n))
}

/// The key a vendor name has: its canonical short name when known ("Western Digital",
/// "WDC", "WD_BLACK" → `wd`; "バッファロー" → `buffalo`), else the name folded.
pub fn vendor_key(vendor: &str) -> String {
    let folded = fold(vendor);
    let words: Vec<&str> = folded.split(' ').collect();
    match vendor_at_start(&words) {
        Some((key, n)) if n == words.len() => key.to_string(),
        _ => folded,
    }
}

/// A drive as a tag or a string names it: whatever of vendor, model line, capacity and
/// part number could be read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Identity {
    /// The vendor's key ([`vendor_key`]).
    pub vendor: Option<String>,
    /// The vendor as written.
    pub vendor_name: Option<String>,
    /// The model line's words, folded, without vendor, generic words and capacity.
    pub model_words: Vec<String>,
    /// The model line as written, without the vendor and capacity.
    pub model_name: Option<String>,
    pub capacity_gb: Option<u32>,
    /// Compact forms of what may be a part number or an operating system's model string.
    pub compacts: Vec<String>,
    /// The same strings without a last word that may be a revision ("CTFDDAC064MAG-1G1"
    /// → "ctfddac064mag", "… 990 PRO 2TB 4B2QJXD7" → "…990pro2tb"): asked only when the
    /// exact forms find nothing.
    pub loose_compacts: Vec<String>,
    /// Words after the capacity ("@ PCIe 2.0 x2", a firmware revision): not the model.
    pub trailing: Vec<String>,
    /// The model line of `data/drive_lines.json` the text names (an index of
    /// `lines::table().lines`), by a part number or model string pattern or by one of the
    /// line's names.
    pub line: Option<usize>,
    /// The part number or model string, as written, that a pattern of the line matched
    /// ("CT1000MX500SSD1", "WDC WDS100T2B0C-00PXH0"): a new drive keeps it as an alias,
    /// so that it is found by it.
    pub reported: Option<String>,
}

impl Identity {
    /// Reads a model string as written anywhere ("Samsung SSD 990 PRO 2TB"): a leading
    /// known vendor, then model words up to the capacity; words after the capacity are
    /// not the model.
    pub fn from_model_string(s: &str) -> Identity {
        Identity::read(None, s, None, None)
    }

    /// Reads a drive tag. `Ok(None)` when it names nothing; an error for text that cannot
    /// name a drive (control characters, too long, only punctuation, scripts mixed in one
    /// word).
    pub fn from_tag(tag: &DriveTag) -> Result<Option<Identity>, Junk> {
        let vendor = checked("vendor", tag.vendor.as_deref())?;
        let model = checked("model", tag.model.as_deref())?;
        let part = checked("part_number", tag.part_number.as_deref())?;
        if vendor.is_none() && model.is_none() && part.is_none() {
            return Ok(None);
        }
        Ok(Some(Identity::read(vendor, model.unwrap_or(""), tag.capacity_gb, part)))
    }

    fn read(vendor: Option<&str>, model: &str, capacity_gb: Option<u32>, part: Option<&str>) -> Identity {
        let table = lines::table();
        let folded = fold(model);
        let mut words: Vec<&str> = folded.split(' ').filter(|w| !w.is_empty()).collect();
        // Words before the vendor or part number that name nothing ("NVMe Samsung SSD
        // 970…", "NVMe CT1000P3SSD8", as Windows prints NVMe drives).
        while words.len() > 1 && table.is_generic(words[0]) {
            words.remove(0);
        }
        let mut id = Identity { capacity_gb, ..Identity::default() };
        // A capacity before the vendor ("2TB Samsung 990 PRO", "128 GB Crucial RealSSD
        // C300").
        if let Some((gb, used)) = (!words.is_empty()).then(|| capacity_of(&words, 0)).flatten() {
            if vendor_at_start(&words[used..]).is_some() {
                id.capacity_gb = id.capacity_gb.or(Some(gb));
                words.drain(..used);
            }
        }
        let given_vendor = vendor.map(vendor_key);
        // The model may start with the vendor, given or not, written once or twice
        // ("Western Digital WD Blue SN550", "WD_BLACK SN850X": the brand is the vendor).
        let lead = vendor_at_start(&words).map(|(k, n)| (k.to_string(), n)).or_else(|| {
            let g = given_vendor.as_ref()?;
            let n = g.split(' ').count();
            (words.len() >= n && words[..n].join(" ") == *g).then(|| (g.clone(), n))
        });
        if let Some((key, n)) = lead {
            if given_vendor.as_ref().is_none_or(|g| *g == key) {
                words.drain(..n);
                let mut key = key;
                while let Some((again, n)) = vendor_at_start(&words) {
                    if n == words.len() || (again != key && given_vendor.is_some()) {
                        break;
                    }
                    // A brand under its owner's name ("Sandisk WD Blue SN570", as
                    // hw-probe files WD drives): the brand written last is the drive's.
                    key = again.to_string();
                    words.drain(..n);
                }
                id.vendor = Some(key);
            }
        }
        if let Some(g) = given_vendor {
            id.vendor = Some(g);
        }
        // A known vendor is shown as the table says ("WD" for "WDC", "Buffalo" for
        // "バッファロー"); another as written.
        id.vendor_name = match (&id.vendor, vendor) {
            (Some(key), _) if table.vendor(key).is_some() => table.vendor(key).map(|v| v.display.clone()),
            (Some(_), Some(v)) => Some(v.trim().chars().filter_map(display_char).collect()),
            (Some(_), None) => {
                model.split_whitespace().next().map(|w| w.chars().filter_map(display_char).collect())
            }
            (None, _) => None,
        };
        // Model words up to the capacity; the rest trails.
        let mut model_words: Vec<&str> = Vec::new();
        let mut i = 0;
        while i < words.len() {
            if let Some((gb, used)) = capacity_of(&words, i) {
                id.capacity_gb = id.capacity_gb.or(Some(gb));
                let after = &words[i + used..];
                if model_words.iter().all(|w| table.is_generic(w)) {
                    // The capacity first ("1TB Blue SN550", "128GBのC300"): the model
                    // follows it.
                    model_words = after.to_vec();
                } else {
                    id.trailing = after.iter().map(|w| w.to_string()).collect();
                }
                break;
            }
            model_words.push(words[i]);
            i += 1;
        }
        id.model_words = model_words.iter().filter(|w| !table.is_generic(w)).map(|w| w.to_string()).collect();
        id.model_name = model_display(model, &id);
        // Compact forms: the whole model string, without its vendor, and the part number.
        let mut compacts = vec![compact(model), compact(&words.join(" "))];
        if let Some(p) = part {
            compacts.push(compact(p));
            let pf = fold(p);
            let pw: Vec<&str> = pf.split(' ').collect();
            if let Some((_, n)) = vendor_at_start(&pw) {
                compacts.push(pw[n..].concat());
            }
        }
        compacts.retain(|c| !c.is_empty());
        compacts.dedup();
        id.compacts = compacts;
        for text in [Some(model), part].into_iter().flatten() {
            let f = fold(text);
            let w: Vec<&str> = f.split(' ').collect();
            if let [rest @ .., last] = w.as_slice() {
                let kept: String = rest.concat();
                if kept.len() >= 6
                    && (looks_like_revision(last)
                        || (last.len() <= 3 && last.chars().any(|c| c.is_ascii_digit())))
                {
                    id.loose_compacts.push(kept);
                }
            }
        }
        id.loose_compacts.retain(|c| !id.compacts.contains(c));
        id.find_line(part, model);
        id
    }

    /// The model line the identity names, from `data/drive_lines.json`: a part number's
    /// or model string's pattern (which also gives the capacity the part number
    /// encodes), else the model words as one of the line's names.
    fn find_line(&mut self, part: Option<&str>, model: &str) {
        let table = lines::table();
        let vendor = self.vendor.as_deref();
        // A model string of 15 or 16 characters with no capacity may be one Linux cut
        // (sysfs keeps 16 characters of a SATA drive's model).
        let cut = capacity_in(model).is_none() && (15..=16).contains(&model.trim().chars().count());
        let by_part = [part, Some(model)]
            .into_iter()
            .flatten()
            .find_map(|t| table.line_of_part(vendor, t))
            .or_else(|| cut.then(|| table.line_of_cut(vendor, model)).flatten());
        if let Some(m) = by_part {
            self.line = Some(m.line);
            // The part number's capacity is the drive's; a typed one that disagrees
            // is the person's, and stays (the name key then tells them apart).
            self.capacity_gb = self.capacity_gb.or(m.capacity_gb);
            self.reported = Some(m.text);
            return;
        }
        let name: String = self.model_words.concat();
        // Words after the capacity that continue the line's name ("OCZ Vertex 3 120GB
        // Max IOPS"): the longest name the table knows wins.
        for k in (1..=self.trailing.len()).rev() {
            let longer = format!("{name}{}", self.trailing[..k].concat());
            if let Some(l) = table.line_named(vendor, &longer) {
                self.line = Some(l);
                self.model_words.extend(self.trailing.drain(..k));
                return;
            }
        }
        // The whole model: any last word may be the line's own ("P3 Plus" is not "P3",
        // "Blue SN550" is not "Blue"); then without a form factor ("P1 M.2"), unless that
        // is a line of its own ("Extreme Pro M.2").
        self.line = table.line_named(vendor, &name).or_else(|| {
            let plain: String =
                self.model_words.iter().filter(|w| !table.is_form(w)).map(String::as_str).collect();
            (plain != name).then(|| table.line_named(vendor, &plain)).flatten()
        });
        // A part number of a line the table lacks, read by its vendor's grammar
        // ("CT1000E100SSD8": a Crucial E100 of 1000 GB): vendor, line and capacity, so that
        // the name "Crucial E100 1TB" finds the drive it makes.
        if self.line.is_none() {
            let read = [part, Some(model)].into_iter().flatten().find_map(|t| table.grammar_of(vendor, t));
            // A capacity written beside the part number must be the one it encodes.
            if let Some(g) = read.filter(|g| self.capacity_gb.is_none_or(|gb| gb == g.capacity_gb)) {
                self.vendor_name = table.vendor(&g.vendor).map(|v| v.display.clone());
                self.vendor = Some(g.vendor);
                self.model_words = vec![fold(&g.line)];
                self.model_name = Some(g.line);
                self.capacity_gb = Some(g.capacity_gb);
                self.reported =
                    [part, Some(model)].into_iter().flatten().next().map(|t| t.trim().to_string());
            }
        }
    }

    /// The line key, `l:VENDOR|LINE|GB`, when the line and the capacity are known: the
    /// same for every name of one line and capacity ("Crucial C300 256GB",
    /// "C300-CTFDDAC256MAG", "Micron RealSSD C300 256 GB").
    pub fn line_key(&self) -> Option<String> {
        let line = &lines::table().lines[self.line?];
        Some(format!("l:{}|{}", line.id, self.capacity_gb?))
    }

    /// The name key, when vendor, model and capacity are all known.
    pub fn name_key(&self) -> Option<String> {
        name_key(self.vendor.as_deref()?, &self.model_words, self.capacity_gb?)
    }

    /// The key range of every capacity of this identity's model line, [from, to), when
    /// it names a vendor and model but no capacity ("Crucial MX500"): the drives it may
    /// be, none of which it may be taken for without asking.
    pub fn model_line_range(&self) -> Option<(String, String)> {
        if self.capacity_gb.is_some() {
            return None;
        }
        let from = match self.line {
            Some(l) => format!("l:{}|", lines::table().lines[l].id),
            None => model_line_key(self.vendor.as_deref()?, &self.model_words)?,
        };
        // '}' follows '|': every "n:vendor|model|<capacity>" key sorts inside.
        let to = format!("{}}}", &from[..from.len() - 1]);
        Some((from, to))
    }

    /// The keys to look this identity up by, most exact first: each inner list is one
    /// round, and a later round is asked only when no drive matched an earlier one.
    /// Round one: the name and the compact forms; round two: the same without a trailing
    /// firmware or revision word.
    pub fn lookup_keys(&self) -> Vec<Vec<String>> {
        let mut exact: Vec<String> = self.line_key().into_iter().chain(self.name_key()).collect();
        exact.extend(self.compacts.iter().map(|c| format!("p:{c}")));
        let mut loose = Vec::new();
        if let (Some(v), Some(gb), [rest @ .., last]) =
            (self.vendor.as_deref(), self.capacity_gb, self.model_words.as_slice())
        {
            if looks_like_revision(last) && !rest.is_empty() {
                loose.extend(name_key(v, rest, gb));
            }
        }
        loose.extend(self.loose_compacts.iter().map(|c| format!("p:{c}")));
        // A known line is certain: no word of it is a revision to drop ("SN550").
        if self.line.is_some() {
            loose.clear();
        }
        exact.dedup();
        loose.retain(|k| !exact.contains(k));
        loose.dedup();
        [exact, loose].into_iter().filter(|r| !r.is_empty()).collect()
    }

    /// A community drive for this identity: vendor, model line and capacity known.
    pub fn new_drive(&self, part_number: Option<&str>) -> Option<DriveSku> {
        let capacity_gb = self.capacity_gb?;
        // A known line is named as the table names it ("CT1000MX500SSD1" is a Crucial
        // MX500 1 TB), whatever the text said.
        let known = self.line.map(|l| &lines::table().lines[l]).and_then(|line| {
            let vendor = lines::table().vendor(&line.vendor)?.display.clone();
            Some((vendor, line.line.clone()))
        });
        let (vendor, model) = match known {
            Some(named) => named,
            None => {
                self.name_key()?;
                (
                    self.vendor_name.clone().filter(|v| !v.is_empty())?,
                    self.model_name.clone().filter(|m| !m.is_empty())?,
                )
            }
        };
        Some(DriveSku {
            id: slug(&format!("{vendor} {model} {capacity_gb}gb")),
            vendor,
            model,
            part_number: part_number.map(|p| p.trim().to_string()).filter(|p| !p.is_empty()),
            capacity_gb,
            interface: None,
            controller: Default::default(),
            nand: Default::default(),
            dram_mb: None,
            form_factor: None,
            firmware: Vec::new(),
            rated: Default::default(),
            aliases: self.reported.iter().cloned().collect(),
            reviewed: false,
        })
    }
}

/// The model line as written, for a new drive's name: the words between the vendor and
/// the capacity, original case kept.
fn model_display(model: &str, id: &Identity) -> Option<String> {
    if id.model_words.is_empty() {
        return None;
    }
    let mut words: Vec<String> = Vec::new();
    let mut wanted = id.model_words.iter().peekable();
    for raw in model.split_whitespace() {
        let Some(next) = wanted.peek() else { break };
        if fold(raw) == **next {
            words.push(raw.chars().filter_map(display_char).collect());
            wanted.next();
        }
    }
    if wanted.peek().is_some() {
        // Words folded apart ("PX-256M2S" is two words): the folded words, upper case.
        return Some(id.model_words.join(" ").to_uppercase());
    }
    Some(words.join(" "))
}

/// A word that reads as a firmware or revision suffix: letters and digits mixed, five
/// characters or more ("RVT04B6Q", "4B2QJXD7", "P3CR013"; not a model's "SN550").
fn looks_like_revision(w: &str) -> bool {
    w.len() >= 7 && w.chars().any(|c| c.is_ascii_digit()) && w.chars().any(|c| c.is_ascii_alphabetic())
}

fn name_key<S: AsRef<str>>(vendor: &str, model_words: &[S], gb: u32) -> Option<String> {
    Some(format!("{}{gb}", model_line_key(vendor, model_words)?))
}

/// `n:vendor|model|`, what every capacity's [`name_key`] of a model line begins with.
fn model_line_key<S: AsRef<str>>(vendor: &str, model_words: &[S]) -> Option<String> {
    let model: Vec<&str> = model_words.iter().map(AsRef::as_ref).collect();
    // The model's words joined without spaces: "P 105" and "P105", "990 PRO" and
    // "990PRO" are written both ways for one drive.
    (!model.is_empty() && !vendor.is_empty()).then(|| format!("n:{vendor}|{}|", model.concat()))
}

/// Checks one tag text; `None` when absent or blank.
/// Text a person typed for `field` (a vendor, a model, a controller, a firmware
/// version...): trimmed, `None` when empty, or why it is junk: longer than [`MAX_LEN`],
/// a control character, no letter or digit, a word mixing Latin with other letters.
pub fn checked<'a>(field: &'static str, s: Option<&'a str>) -> Result<Option<&'a str>, Junk> {
    let Some(s) = s.map(str::trim).filter(|s| !s.is_empty()) else { return Ok(None) };
    let junk = |detail: String| Err(Junk { field, detail });
    if s.chars().count() > MAX_LEN {
        return junk(format!("longer than {MAX_LEN} characters"));
    }
    if let Some(c) = s.chars().find(|c| c.is_control()) {
        return junk(format!("contains the control character U+{:04X}", c as u32));
    }
    let folded = fold(s);
    if folded.is_empty() {
        return junk("has no letters or digits".into());
    }
    // A word that still mixes Latin with Cyrillic or Greek after look-alikes were folded
    // is an imitation that folding could not undo: refused, never a second drive. (Kana
    // and ideographs beside Latin are how Japanese is written: `fold` splits them.)
    let imitation = |c: char| matches!(c, '\u{0370}'..='\u{03FF}' | '\u{0400}'..='\u{052F}');
    if let Some(w) =
        folded.split(' ').find(|w| w.chars().any(|c| c.is_ascii_alphabetic()) && w.chars().any(imitation))
    {
        return junk(format!("mixes Latin and other letters in {w:?}"));
    }
    Ok(Some(s))
}

/// Every key a drive is known under: its name, its compact forms and its aliases'.
pub fn keys_of(drive: &DriveSku) -> Vec<String> {
    let mut keys = Vec::new();
    let vendor = vendor_key(&drive.vendor);
    let main = Identity::read(
        Some(&drive.vendor),
        &drive.model,
        Some(drive.capacity_gb),
        drive.part_number.as_deref(),
    );
    keys.extend(main.line_key());
    keys.extend(main.name_key());
    let model = compact(&drive.model);
    let cap = format!("{}gb", drive.capacity_gb);
    keys.push(format!("p:{model}{cap}"));
    keys.push(format!("p:{}{model}{cap}", vendor.replace(' ', "")));
    keys.push(format!("p:{}{model}{cap}", compact(&drive.vendor)));
    if let Some(p) = &drive.part_number {
        keys.extend(main.compacts.iter().skip(2).map(|c| format!("p:{c}")));
        keys.push(format!("p:{}", compact(p)));
    }
    for alias in &drive.aliases {
        let a = Identity::read(None, alias, None, None);
        let a = Identity { capacity_gb: a.capacity_gb.or(Some(drive.capacity_gb)), ..a };
        // An alias's name counts only when it names this drive's capacity.
        if a.capacity_gb == Some(drive.capacity_gb) {
            keys.extend(a.line_key());
            keys.extend(a.name_key());
        }
        keys.extend(a.compacts.iter().map(|c| format!("p:{c}")));
    }
    keys.retain(|k| k.len() > 2);
    keys.sort();
    keys.dedup();
    keys
}

/// The texts of an upload that may name its drive, in the order they are tried: the
/// model a tool printed (AS SSD's `Name:`, HD Tune's title), with the capacity it printed
/// elsewhere when the model does not say it ("Samsung SSD 970 EVO Plus 250GB",
/// "NVMe Samsung SSD 960 SCSI Disk Device 500 GB"), then a CrystalDiskMark or KDiskMark
/// comment ("Crucial P2 2TB @ PCIe 3.0 x4"). The server identifies a submission without
/// a drive tag from them, and proposes a drive they name but SSDBase lacks for the
/// person to confirm.
pub fn texts_naming_a_drive(result: &crate::BenchResult) -> Vec<String> {
    let capacity = result.fact("capacity_gb").map(|f| f.value.as_str());
    let models = result.facts.iter().filter(|f| f.field == "model").map(|f| match capacity {
        Some(gb) if capacity_in(&f.value).is_none() => format!("{} {gb} GB", f.value),
        _ => f.value.clone(),
    });
    let comments = result.facts.iter().filter(|f| f.field == "comment").map(|f| f.value.clone());
    let mut texts: Vec<String> = models.chain(comments).collect();
    texts.dedup();
    texts
}

/// The capacity of the drive an upload measured, as far as the upload itself says: the
/// capacity a tool printed, or that of the whole-drive volume it ran on
/// ([`capacity_of_volume`]). What a text naming the drive without a capacity is
/// completed with ([`with_capacity`], on the server: it needs the line table, which the
/// browser's pages do not download).
pub fn upload_capacity(result: &crate::BenchResult) -> Option<u32> {
    result
        .fact("capacity_gb")
        .and_then(|f| f.value.parse().ok())
        .or_else(|| result.target.as_deref().and_then(capacity_of_volume))
}

/// `text` with `capacity_gb` after it when it reads as a drive's name without one
/// ("Crucial MX500" of a run on a 466 GiB volume: "Crucial MX500 500 GB"); other text
/// as it is (a capacity would make "after a fresh install" read as a drive).
pub fn with_capacity(text: &str, capacity_gb: Option<u32>) -> String {
    match capacity_gb {
        Some(gb) if capacity_in(text).is_none() && names_a_drive(text) => format!("{text} {gb} GB"),
        _ => text.to_string(),
    }
}

/// Capacities drives are sold in, in GB: what a whole-drive volume is read as.
const SOLD_CAPACITIES: &[u32] = &[
    16, 24, 30, 32, 40, 60, 64, 80, 90, 100, 110, 115, 120, 128, 160, 180, 200, 220, 240, 250, 256, 275, 300,
    320, 360, 400, 440, 450, 480, 500, 512, 525, 600, 640, 750, 800, 900, 960, 1000, 1024, 1050, 1200, 1600,
    1800, 1920, 2000, 2048, 3200, 3840, 4000, 4096, 6400, 7680, 8000, 15360, 16000,
];

/// The capacity of the drive a volume spans, from the size its tool prints
/// (`C: 33.0% (39.3/119.1 GB)` is 127.9 GB: a 128 GB drive): the sold capacity it is
/// 96 to 101 % of (a volume is a little smaller than its drive), nearest first; `None`
/// when it is none's (a partition, an array).
pub fn capacity_of_volume(target: &str) -> Option<u32> {
    let gb = crate::analysis::volume_bytes(target)? / 1e9;
    SOLD_CAPACITIES
        .iter()
        .copied()
        .filter(|&c| (f64::from(c) * 0.96..=f64::from(c) * 1.01).contains(&gb))
        .min_by(|a, b| (f64::from(*a) - gb).abs().total_cmp(&(f64::from(*b) - gb).abs()))
}

/// Whether `text` reads as a drive's name: a model word with a vendor or a capacity
/// ("Crucial P2 2TB @ PCIe 3.0 x4" does, "test run 3" does not).
pub fn names_a_drive(text: &str) -> bool {
    let id = Identity::from_model_string(text);
    id.line.is_some() || (!id.model_words.is_empty() && (id.vendor.is_some() || id.capacity_gb.is_some()))
}

/// Where a search for `query` starts and ends among the `p:` keys: every key in
/// `[from, to)` begins with the query written compactly. Two ranges when the query
/// starts with a vendor known under another key: as typed ("WDC WDS…", matching an
/// operating system's model string) and with the vendor's key ("Western Digital SN…" →
/// `wdsn…`, matching every WD drive's name). None for a query with no letters or digits.
pub fn search_ranges(query: &str) -> Vec<(String, String)> {
    let range = |q: String| (format!("p:{q}"), format!("p:{q}{}", char::MAX));
    let typed = compact(query);
    if typed.is_empty() {
        return Vec::new();
    }
    let mut out = vec![range(typed.clone())];
    let folded = fold(query);
    let words: Vec<&str> = folded.split(' ').collect();
    if let Some((key, n)) = vendor_at_start(&words) {
        let keyed = format!("{}{}", key.replace(' ', ""), words[n..].concat());
        if keyed != typed {
            out.push(range(keyed));
        }
    }
    out
}

/// The text drive search indexes for `drive`: every name it goes by, folded (lower
/// case, words split at punctuation) and each word once: its vendor's names in every
/// script, its model, its line's names ("C300" for a RealSSD C300), its capacity ("256gb",
/// "2tb"), its part number and aliases, written as they are and compact (so a part number
/// is found in any spacing), and its controller ("88ss9174", "sf 2281", "sf2281"), so that
/// a search for a controller lists the drives that carry it.
pub fn search_text(drive: &DriveSku) -> String {
    let table = lines::table();
    let id = Identity::read(
        Some(&drive.vendor),
        &drive.model,
        Some(drive.capacity_gb),
        drive.part_number.as_deref(),
    );
    let mut texts: Vec<String> = vec![drive.vendor.clone()];
    let mut vendors = vec![vendor_key(&drive.vendor)];
    let line = id.line.map(|l| &table.lines[l]);
    if let Some(line) = line {
        vendors.push(line.vendor.clone());
        vendors.extend(line.makers.iter().cloned());
    }
    for v in vendors.iter().filter_map(|k| table.vendor(k)) {
        texts.push(v.display.clone());
        texts.extend(v.names.iter().cloned());
    }
    texts.push(drive.model.clone());
    if let Some(line) = line {
        texts.extend(line.names.iter().cloned());
        texts.extend(line.controller.clone());
    }
    let gb = drive.capacity_gb;
    texts.push(format!("{gb}gb"));
    if gb >= 1000 {
        texts.push(format!("{}tb", f64::from(gb) / 1000.0));
    }
    texts.extend(drive.part_number.clone());
    texts.extend(drive.aliases.iter().cloned());
    texts.extend(drive.controller.vendor.clone());
    texts.extend(drive.controller.model.clone());
    let mut compacts = vec![compact(&drive.model), compact(&format!("{} {}", drive.vendor, drive.model))];
    compacts.extend(
        drive.part_number.iter().chain(&drive.aliases).chain(&drive.controller.model).map(|t| compact(t)),
    );
    if let Some(line) = line {
        compacts.extend(line.names.iter().map(|n| compact(n)));
    }
    let mut words: Vec<String> = Vec::new();
    for w in texts
        .iter()
        .map(|t| fold(t))
        .chain(compacts)
        .flat_map(|t| t.split(' ').filter(|w| !w.is_empty()).map(str::to_string).collect::<Vec<_>>())
    {
        if !words.contains(&w) {
            words.push(w);
        }
    }
    words.join(" ")
}

/// A drive search as typed, in the words the search engine is asked for: each word of
/// the query folded as [`search_text`] folds, and the whole query compact (a part number
/// typed with spaces, "CT 1000 MX500").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchQuery {
    /// Each word of the query with the words it may be a typo of: a drive's text holds
    /// one of each term's words.
    pub terms: Vec<Vec<String>>,
    pub compact: String,
    /// The query as typed.
    pub text: String,
}

/// The words of a drive search: `None` when it has no letter or digit.
pub fn search_query(query: &str) -> Option<SearchQuery> {
    let folded = fold(query);
    let table = lines::table();
    let words: Vec<&str> = folded.split(' ').filter(|w| !w.is_empty()).collect();
    let mut terms: Vec<Vec<String>> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        // A capacity as every drive's text writes it ("1 TB", "1tb" → "1000gb").
        if let Some((gb, used)) = capacity_of(&words, i) {
            terms.push(vec![format!("{gb}gb")]);
            i += used;
            continue;
        }
        if !table.is_generic(words[i]) || words.len() == 1 {
            terms.push(vec![words[i].to_string()]);
        }
        i += 1;
    }
    (!terms.is_empty()).then(|| SearchQuery { terms, compact: compact(query), text: query.to_string() })
}

/// How well a drive's search text answers a query, best highest: whether the query
/// names the drive's whole model line (a search for "970 evo" names the 970 EVO more
/// than the 970 EVO Plus), then how many of the query's words begin a word of the text (a
/// prefix ranks above a match inside a word).
pub fn search_rank(query: &SearchQuery, drive: &DriveSku, text: &str) -> (bool, usize) {
    let words: Vec<&str> = text.split(' ').collect();
    let starts = query
        .terms
        .iter()
        .filter(|t| t.iter().any(|a| words.iter().any(|w| w.starts_with(a.as_str()))))
        .count();
    // The model as line names compare ("970 EVO" → "970evo"), against every run of the
    // query's words.
    let model = lines::table().compact_name(&drive.model);
    let terms: Vec<&str> = query.terms.iter().filter_map(|t| t.first()).map(String::as_str).collect();
    let whole = !model.is_empty()
        && (0..terms.len()).any(|i| (i + 1..=terms.len()).any(|j| terms[i..j].concat() == model));
    (whole, starts)
}

/// The words a drive's search text adds to the vocabulary that corrects typos: words of
/// letters only, three or more (vendors, series: "plextor", "wildfire", "evo"). Part
/// numbers and model numbers are not corrected: one per drive, they would make the
/// vocabulary as large as the catalogue.
pub fn vocabulary(text: &str) -> impl Iterator<Item = &str> {
    text.split(' ').filter(|w| w.chars().count() >= 3 && w.chars().all(char::is_alphabetic))
}

/// Whether `candidate` is one typo away from `word` (a letter added, dropped, changed or
/// two letters swapped), for words of four letters or more.
pub fn one_typo_away(word: &str, candidate: &str) -> bool {
    typo_correctable(word) && word != candidate && strsim::osa_distance(word, candidate) == 1
}

/// Whether a word may be corrected for one typo: four letters or more.
pub fn typo_correctable(word: &str) -> bool {
    word.chars().count() >= 4 && word.chars().all(char::is_alphabetic)
}

/// Whether `identity` and `drive` are written alike enough that one may be a misspelling
/// or a short form of the other: the same vendor (or one typo apart) and model lines
/// that are equal, one typo apart, or one the other with at most three more characters
/// ("M2S" and "PX-M2S"; not "P3" and "P3 Plus").
pub fn close_names(identity: &Identity, drive: &DriveSku) -> bool {
    let theirs = Identity::read(Some(&drive.vendor), &drive.model, Some(drive.capacity_gb), None);
    let close = |a: &str, b: &str| {
        let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
        !short.is_empty()
            && (a == b
                || one_typo_away(a, b)
                || (long.len() - short.len() <= 3 && (long.starts_with(short) || long.ends_with(short))))
    };
    let vendors = match (&identity.vendor, &theirs.vendor) {
        (Some(a), Some(b)) => a == b || one_typo_away(a, b),
        _ => true,
    };
    vendors && close(&identity.model_words.concat(), &theirs.model_words.concat())
}

/// The capacity as drive makers write it, in decimal GB.
///
/// Drives of 50 GB and more follow IDEMA's LBA count (LBA1-03): 97,696,368 sectors of
/// 512 bytes for 50 GB plus 1,953,504 per further GB, so a little more than GB × 10⁹
/// bytes, and the excess grows with size (an 8 TB drive holds 8.0016 × 10¹² bytes). The
/// GB count is that formula solved for GB and rounded to the nearest whole number:
/// 500,107,862,016 bytes → 500, 4,000,787,030,016 → 4000, 480,103,981,056 → 480; drives
/// that give slightly less than the formula (SD cards: 63,864,569,856 bytes for "64 GB")
/// round up to what is printed on them. Below 50 GB the bytes are divided by 10⁹ and
/// rounded (31,914,983,424 → 32).
pub fn marketed_gb(bytes: u64) -> Option<u32> {
    const IDEMA_50GB_SECTORS: f64 = 97_696_368.0;
    const IDEMA_SECTORS_PER_GB: f64 = 1_953_504.0;
    let gb = if bytes >= 50_000_000_000 {
        50.0 + (bytes as f64 / 512.0 - IDEMA_50GB_SECTORS) / IDEMA_SECTORS_PER_GB
    } else {
        bytes as f64 / 1e9
    };
    let rounded = gb.round();
    (rounded >= 1.0 && rounded <= f64::from(u32::MAX)).then_some(rounded as u32)
}

/// A URL-safe id from a drive's name, readable in every script: folded words joined by
/// hyphens ("Crucial P2 500gb" → `crucial-p2-500gb`); a known vendor's name in another
/// script is the vendor's Latin name ("バッファロー SSD-PG480U3-B" → `buffalo-ssd-pg480u3-b`),
/// other letters are transliterated (`deunicode`). Distinct names that read alike get
/// distinct ids where the drive is made (a number is added).
pub fn slug(name: &str) -> String {
    let folded = fold(name);
    let words: Vec<&str> = folded.split(' ').filter(|w| !w.is_empty()).collect();
    let table = lines::table();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if let Some((v, n)) = table.vendor_at_start(&words[i..]) {
            if words[i..i + n].iter().any(|w| !w.is_ascii()) {
                out.push(v.display.clone());
                i += n;
                continue;
            }
        }
        out.push(words[i].to_string());
        i += 1;
    }
    let ascii = deunicode::deunicode(&out.join(" ")).to_lowercase();
    let mut slug = String::with_capacity(ascii.len());
    for c in ascii.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    slug.truncate(slug.trim_end_matches('-').len());
    slug
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_lines_range_holds_each_capacity_and_no_other_line() {
        let tag = |model: &str, gb: Option<u32>| DriveTag {
            vendor: Some("Plextor".into()),
            model: Some(model.into()),
            capacity_gb: gb,
            ..DriveTag::default()
        };
        let line = Identity::from_tag(&tag("PX-M2S", None)).unwrap().unwrap();
        let (from, to) = line.model_line_range().unwrap();
        let inside = |model: &str, gb| {
            let id = Identity::from_tag(&tag(model, Some(gb))).unwrap().unwrap();
            let key = id.line_key().or(id.name_key()).unwrap();
            from <= key && key < to
        };
        assert!(inside("PX-M2S", 64) && inside("PX-M2S", 256) && inside("PX M2S", 1000));
        assert!(!inside("PX-M2SP", 128) && !inside("PX-M2", 128));
        // With its capacity a tag names one drive, not a line.
        assert!(Identity::from_tag(&tag("PX-M2S", Some(128))).unwrap().unwrap().model_line_range().is_none());
    }

    #[test]
    fn a_whole_drive_volume_gives_its_capacity() {
        assert_eq!(capacity_of_volume("C: 33.0% (39.3/119.1 GB)"), Some(128));
        assert_eq!(capacity_of_volume("D: 0% (0/466GiB)"), Some(500));
        assert_eq!(capacity_of_volume("C: 91% (202/223GiB)"), Some(240));
        assert_eq!(capacity_of_volume("E: 1% (0.1/931.5 GB)"), Some(1000));
        assert_eq!(capacity_of_volume("E: 1% (0.1/1.8 TiB)"), Some(2000));
        assert_eq!(capacity_of_volume("C: 50% (20/50 GB)"), None, "a partition");
        assert_eq!(
            with_capacity("Crucial MX500", capacity_of_volume("D: 0% (0/466GiB)")),
            "Crucial MX500 500 GB"
        );
        assert_eq!(with_capacity("Crucial MX500 1TB", Some(500)), "Crucial MX500 1TB");
        assert_eq!(with_capacity("after a fresh install", Some(500)), "after a fresh install");
        let mut r = crate::BenchResult::new(crate::Tool::CrystalDiskMark);
        r.target = Some("D: 0% (0/466GiB)".into());
        assert_eq!(upload_capacity(&r), Some(500));
        r.facts.push(crate::FileFact::at("capacity_gb", "1000", 3, "Capacity: 1000 GB"));
        assert_eq!(upload_capacity(&r), Some(1000), "a capacity the tool printed comes first");
    }
    fn catalogue_drive(vendor: &str, model: &str, gb: u32, part: Option<&str>, aliases: &[&str]) -> DriveSku {
        DriveSku {
            id: slug(&format!("{vendor} {model} {gb}gb")),
            vendor: vendor.into(),
            model: model.into(),
            part_number: part.map(Into::into),
            capacity_gb: gb,
            interface: None,
            controller: Default::default(),
            nand: Default::default(),
            dram_mb: None,
            form_factor: None,
            firmware: Vec::new(),
            rated: Default::default(),
            aliases: aliases.iter().map(|a| a.to_string()).collect(),
            reviewed: true,
        }
    }

    /// The drives a tag's keys find among `drives`, round by round.
    fn find<'a>(drives: &'a [DriveSku], tag: &DriveTag) -> Vec<&'a str> {
        let id = Identity::from_tag(tag).unwrap().unwrap();
        for round in id.lookup_keys() {
            let mut hits: Vec<&str> = drives
                .iter()
                .filter(|d| keys_of(d).iter().any(|k| round.contains(k)))
                .map(|d| d.id.as_str())
                .collect();
            hits.dedup();
            if !hits.is_empty() {
                return hits;
            }
        }
        Vec::new()
    }

    fn model(s: &str) -> DriveTag {
        DriveTag { model: Some(s.into()), ..DriveTag::default() }
    }

    fn catalogue() -> Vec<DriveSku> {
        vec![
            catalogue_drive("Crucial", "P2", 500, Some("CT500P2SSD8"), &[]),
            catalogue_drive("Crucial", "P2", 2000, Some("CT2000P2SSD8"), &[]),
            catalogue_drive("Samsung", "990 PRO", 2000, Some("MZ-V9P2T0BW"), &["Samsung SSD 990 PRO 2TB"]),
            catalogue_drive("Plextor", "PX-M2S", 256, Some("PX-256M2S"), &[]),
            catalogue_drive("Intel", "SSD 510", 120, Some("SSDSC2MH120A2K5"), &["INTEL SSDSC2MH120A2"]),
            catalogue_drive(
                "Crucial",
                "RealSSD C400",
                128,
                Some("CSSD-S6M128NM4Q"),
                &["CFD CSSD-S6M128NM4Q"],
            ),
            catalogue_drive("Micron", "5300 PRO", 1920, None, &[]),
            catalogue_drive("A-DATA", "S592", 128, Some("AS592S-128GM-C"), &[]),
        ]
    }

    #[test]
    fn operating_system_model_strings_find_their_drive() {
        let c = catalogue();
        let cases = [
            ("CT500P2SSD8", "crucial-p2-500gb"),
            ("Samsung SSD 990 PRO 2TB", "samsung-990-pro-2000gb"),
            ("SAMSUNG  ssd 990   pro 2000GB", "samsung-990-pro-2000gb"),
            ("PLEXTOR PX-256M2S", "plextor-px-m2s-256gb"),
            ("INTEL SSDSC2MH120A2", "intel-ssd-510-120gb"),
            ("CFD CSSD-S6M128NM4Q", "crucial-realssd-c400-128gb"),
            ("CSSD-S6M128NM4Q", "crucial-realssd-c400-128gb"),
            ("Micron 5300 PRO 1.92 TB", "micron-5300-pro-1920gb"),
            ("Micron 5300 PRO 1920 GB", "micron-5300-pro-1920gb"),
            // Full-width letters and digits, Cyrillic look-alikes.
            ("Ｓａｍｓｕｎｇ ＳＳＤ ９９０ ＰＲＯ ２ＴＢ", "samsung-990-pro-2000gb"),
            ("Sаmsung SSD 990 PRО 2TB", "samsung-990-pro-2000gb"),
            // A trailing firmware revision.
            ("Samsung SSD 990 PRO 2TB 4B2QJXD7", "samsung-990-pro-2000gb"),
            // What a CrystalDiskMark comment says.
            ("Crucial P2 2TB @ PCIe 2.0 x2", "crucial-p2-2000gb"),
        ];
        for (s, want) in cases {
            assert_eq!(find(&c, &model(s)), vec![want], "{s:?}");
        }
    }

    #[test]
    fn vendor_model_and_capacity_tags_find_their_drive_with_or_without_the_vendor_in_the_model() {
        let c = catalogue();
        let tag = |v: Option<&str>, m: &str, gb: Option<u32>| DriveTag {
            vendor: v.map(Into::into),
            model: Some(m.into()),
            capacity_gb: gb,
            ..DriveTag::default()
        };
        assert_eq!(find(&c, &tag(Some("Crucial"), "P2", Some(500))), vec!["crucial-p2-500gb"]);
        assert_eq!(find(&c, &tag(Some("crucial"), "Crucial P2", Some(500))), vec!["crucial-p2-500gb"]);
        assert_eq!(find(&c, &tag(Some("CRUCIAL"), "p2 500GB", None)), vec!["crucial-p2-500gb"]);
        assert_eq!(find(&c, &tag(Some("ADATA"), "S592", Some(128))), vec!["a-data-s592-128gb"]);
        assert_eq!(find(&c, &tag(Some("Crucial"), "P2", Some(1000))), Vec::<&str>::new());
        assert_eq!(find(&c, &tag(Some("Crucial"), "P5", Some(500))), Vec::<&str>::new());
    }

    #[test]
    fn two_drives_under_one_key_are_both_found() {
        let mut c = catalogue();
        // A second drive claiming the P2 500 GB's part number.
        c.push(catalogue_drive("Crucial", "P2 OEM", 500, Some("CT500P2SSD8"), &[]));
        assert_eq!(find(&c, &model("CT500P2SSD8")).len(), 2);
    }

    #[test]
    fn capacities_as_written() {
        for (s, gb) in [
            ("2TB", 2000),
            ("2 TB", 2000),
            ("2000GB", 2000),
            ("1.92 TB", 1920),
            ("1920 GB", 1920),
            ("500G", 500),
            ("x 256gb y", 256),
            ("２ＴＢ", 2000),
        ] {
            assert_eq!(capacity_in(s), Some(gb), "{s:?}");
        }
        assert_eq!(capacity_in("PCIe 2.0 x2"), None);
        assert_eq!(capacity_in("CT500P2SSD8"), None);
    }

    #[test]
    fn a_new_drive_is_named_as_written() {
        let tag = DriveTag {
            vendor: Some("Crucial".into()),
            model: Some("P2".into()),
            capacity_gb: Some(500),
            ..DriveTag::default()
        };
        let d = Identity::from_tag(&tag).unwrap().unwrap().new_drive(None).unwrap();
        assert_eq!(
            (d.id.as_str(), d.vendor.as_str(), d.model.as_str(), d.capacity_gb),
            ("crucial-p2-500gb", "Crucial", "P2", 500)
        );
        assert!(!d.reviewed);
        // The new drive is found again by the same tag, and by its model string.
        let c = vec![d];
        assert_eq!(find(&c, &tag), vec!["crucial-p2-500gb"]);
        assert_eq!(find(&c, &model("Crucial P2 500GB")), vec!["crucial-p2-500gb"]);
        // A model string alone names vendor, model and capacity.
        let d = Identity::from_model_string("Samsung SSD 870 EVO 1TB").new_drive(None).unwrap();
        assert_eq!((d.vendor.as_str(), d.model.as_str(), d.capacity_gb), ("Samsung", "870 EVO", 1000));
        // Without a capacity there is no drive to create.
        assert!(Identity::from_model_string("Samsung SSD 870 EVO").new_drive(None).is_none());
    }

    #[test]
    fn junk_identities_are_refused_with_the_field() {
        let junk = |tag: DriveTag| Identity::from_tag(&tag).unwrap_err();
        assert_eq!(junk(model(&"x".repeat(10_000))).field, "model");
        assert_eq!(
            junk(DriveTag { vendor: Some("Sam\u{7}sung".into()), ..DriveTag::default() }).field,
            "vendor"
        );
        assert_eq!(junk(model("!!! --- ???")).field, "model");
        assert_eq!(
            junk(DriveTag { part_number: Some("CT500Pй2".into()), ..DriveTag::default() }).field,
            "part_number"
        );
        assert_eq!(Identity::from_tag(&model("   ")), Ok(None));
        assert_eq!(Identity::from_tag(&DriveTag::default()), Ok(None));
    }

    #[test]
    fn search_ranges_cover_prefixes_of_compact_keys() {
        let c = catalogue();
        let hits = |q: &str| -> Vec<String> {
            let ranges = search_ranges(q);
            let mut ids: Vec<String> = c
                .iter()
                .filter(|d| keys_of(d).iter().any(|k| ranges.iter().any(|(from, to)| k >= from && k < to)))
                .map(|d| d.id.clone())
                .collect();
            ids.dedup();
            ids
        };
        assert_eq!(hits("990 pr"), vec!["samsung-990-pro-2000gb"]);
        assert_eq!(hits("samsung 99"), vec!["samsung-990-pro-2000gb"]);
        assert_eq!(hits("ct500"), vec!["crucial-p2-500gb"]);
        assert_eq!(hits("crucial p2"), vec!["crucial-p2-500gb", "crucial-p2-2000gb"]);
        assert!(search_ranges("  -- ").is_empty());
        // A vendor written as operating systems write it, and by another name.
        let mut c = c;
        c.push(catalogue_drive("WD", "Blue SA510", 500, Some("WDS500G3B0B"), &["WDC WDS500G3B0B-00AXS0"]));
        let found = |q: &str, c: &[DriveSku]| {
            let ranges = search_ranges(q);
            c.iter().any(|d| {
                d.vendor == "WD" && keys_of(d).iter().any(|k| ranges.iter().any(|(f, t)| k >= f && k < t))
            })
        };
        for q in ["WDC WDS500", "Western Digital Blue", "wd blue sa5", "WDS500G3"] {
            assert!(found(q, &c), "{q}");
        }
    }

    /// The names of one drive that the issue found split, from people, tools and the
    /// drive itself, share one line key; other capacities and lines do not.
    #[test]
    fn every_name_of_a_line_and_capacity_has_one_line_key() {
        let key = |s: &str| Identity::from_model_string(s).line_key();
        for names in [
            &[
                "Crucial C300 256GB",
                "C300-CTFDDAC256MAG",
                "Micron RealSSD C300 256GB",
                "CTFDDAC256MAG ATA Device",
            ][..],
            &["Plextor M2S 256GB", "PLEXTOR  PX-256M2S", "Plextor PX-M2S 256 GB"],
            &[
                "Crucial MX500 1TB",
                "CT1000MX500SSD1",
                "Crucial_CT1000MX500SSD1",
                "CT1000MX500SSD1 ATA Device",
            ],
            &["WD Blue SN550 1TB", "WDC WDS100T2B0C-00PXH0", "Western Digital WD Blue SN550 1TB"],
            &["WD_BLACK SN850X 2000GB", "WD Black SN850X 2TB", "Western Digital SN850X 2TB"],
            &["Samsung 860 EVO 500GB", "Samsung SSD 860 EVO 500GB", "NVMe Samsung SSD 860 EVO 500GB"],
        ] {
            let first = key(names[0]).unwrap_or_else(|| panic!("{:?} names no line", names[0]));
            for n in names {
                assert_eq!(key(n).as_ref(), Some(&first), "{n:?} vs {:?}", names[0]);
            }
        }
        for (a, b) in [
            ("Crucial MX500 1TB", "Crucial MX500 500GB"),
            ("Crucial P3 1TB", "Crucial P3 Plus 1TB"),
            ("Samsung 860 EVO 500GB", "Samsung 860 PRO 512GB"),
            ("Samsung 970 EVO 1TB", "Samsung 970 EVO Plus 1TB"),
        ] {
            assert_ne!(key(a), key(b), "{a} / {b}");
        }
    }

    /// A new drive's vendor is the vendor's own name, written once, and its id reads in
    /// Latin letters whatever the script.
    #[test]
    fn new_drives_are_named_once_and_slugged_readably() {
        let new = |s: &str| Identity::from_model_string(s).new_drive(None).unwrap();
        let d = new("Western Digital WD Blue SN9999 1TB");
        assert_eq!(
            (d.vendor.as_str(), d.model.as_str(), d.id.as_str()),
            ("WD", "Blue SN9999", "wd-blue-sn9999-1000gb")
        );
        let d = new("WD_BLACK SN9999X 2000GB");
        assert_eq!(d.id, "wd-sn9999x-2000gb");
        let tag = DriveTag {
            vendor: Some("バッファロー".into()),
            model: Some("PG480U3".into()),
            capacity_gb: Some(480),
            ..DriveTag::default()
        };
        let d = Identity::from_tag(&tag).unwrap().unwrap().new_drive(None).unwrap();
        assert_eq!((d.vendor.as_str(), d.id.as_str()), ("Buffalo", "buffalo-pg480u3-480gb"));
        assert_eq!(slug("Ｋｉｎｇｓｔｏｎ Ａ４００ 240gb"), "kingston-a400-240gb");
        assert!(slug("Ďžemo Ω1 240gb").chars().all(|c| c.is_ascii_alphanumeric() || c == '-'));
    }

    #[test]
    fn folding_keeps_decimal_points_and_drops_format_characters() {
        assert_eq!(fold("  1.92 TB\u{200B} / PCIe 2.0  "), "1.92 tb pcie 2.0");
        assert_eq!(fold("v1."), "v1");
        assert_eq!(slug("Crucial P2 500gb"), "crucial-p2-500gb");
    }
}
