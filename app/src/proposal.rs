//! The proposal form's logic (`pages/propose.rs` shows it): its inputs, named by the JSON
//! pointers the server's problems use, the texts a drive fills them with, and the patch
//! the texts say against the drive as it is (`api_types::DriveProposal`: only what
//! differs is sent). Plain Rust, tested natively.

use api_types::{DriveProposal, ErrorItem};
use bench::{CellType, ControllerTag, DriveSku, FormFactor, Link, NandTag, RatedSpec};
use serde::Deserialize;

/// What the form reads of `GET /drives/{id}`: the drive alone (the page's other parts,
/// its per-test summaries above all, are not decoded: their readers would be download).
#[derive(Debug, Clone, Deserialize)]
pub struct DriveOnly {
    pub drive: DriveSku,
}

/// What the form reads of a stored proposal (`api_types::Proposal`): its id and the
/// warnings the moderator will see; the proposal itself is what was sent.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Stored {
    pub id: i64,
    #[serde(default)]
    pub warnings: Vec<String>,
}

/// How a field is typed in.
#[derive(Clone, Copy, PartialEq)]
pub enum Kind {
    Text,
    /// A whole or decimal number.
    Number,
    Interface,
    FormFactor,
    Cell,
}

/// One input: the JSON pointer the server's problems name it by (also its `name`), its
/// label, its placeholder and how it is typed in.
pub struct Input {
    pub at: &'static str,
    pub label: &'static str,
    pub hint: &'static str,
    pub kind: Kind,
}

const fn input(at: &'static str, label: &'static str, hint: &'static str, kind: Kind) -> Input {
    Input { at, label, hint, kind }
}

use Kind::{Number, Text};

/// Every input, in the form's order; [`SECTIONS`] groups them.
pub const INPUTS: [Input; 26] = [
    input("vendor", "Vendor", "Crucial", Text),
    input("model", "Model line", "P2", Text),
    input("capacity_gb", "Capacity (GB)", "500", Number),
    input("part_number", "Part number", "CT500P2SSD8", Text),
    input("interface", "Interface", "", Kind::Interface),
    input("form_factor", "Form factor", "", Kind::FormFactor),
    input("controller/vendor", "Controller vendor", "Silicon Motion", Text),
    input("controller/model", "Controller", "SM2263", Text),
    input("controller/stepping", "Controller stepping", "BKK2", Text),
    input("nand/vendor", "NAND vendor", "Micron", Text),
    input("nand/process_nm", "NAND node (nm)", "64", Number),
    input("nand/cell", "NAND cell type", "", Kind::Cell),
    input("nand/interface", "NAND interface", "ONFI 4", Text),
    input("nand/source", "Source of the NAND facts", "a URL or a document's name", Text),
    input("dram_mb", "DRAM (MB, 0 for none)", "512", Number),
    input("firmware", "Firmware versions, comma-separated", "P2CR010, P2CR012", Text),
    input("rated/seq_read_mbps", "Rated sequential read (MB/s)", "2300", Number),
    input("rated/seq_read_source", "Its source", "https://… or a datasheet's name", Text),
    input("rated/seq_write_mbps", "Rated sequential write (MB/s)", "940", Number),
    input("rated/seq_write_source", "Its source", "https://… or a datasheet's name", Text),
    input("rated/rnd4k_read_iops", "Rated 4K random read (IOPS)", "95000", Number),
    input("rated/rnd4k_read_source", "Its source", "https://… or a datasheet's name", Text),
    input("rated/rnd4k_write_iops", "Rated 4K random write (IOPS)", "195000", Number),
    input("rated/rnd4k_write_source", "Its source", "https://… or a datasheet's name", Text),
    input("aliases", "Other names, comma-separated", "CT500P2SSD8, Crucial P2 500GB", Text),
    input("comment", "Comment for the moderator", "where the figures come from, what changed", Text),
];

/// The form's sections: a title and the inputs it holds (a range of [`INPUTS`]).
pub const SECTIONS: [(&str, usize, usize); 5] = [
    ("The drive", 0, 6),
    ("Controller, NAND, DRAM", 6, 15),
    ("Firmware", 15, 16),
    ("Rated figures: each needs its source", 16, 24),
    ("Names and comment", 24, 26),
];

pub const LINKS: [&str; 13] = [
    "sata-1.5",
    "sata-3",
    "sata-6",
    "pcie-2-x2",
    "pcie-2-x4",
    "pcie-3-x2",
    "pcie-3-x4",
    "pcie-4-x2",
    "pcie-4-x4",
    "pcie-5-x4",
    "usb-5",
    "usb-10",
    "usb-20",
];

pub const CELLS: [(CellType, &str); 4] =
    [(CellType::Slc, "SLC"), (CellType::Mlc, "MLC"), (CellType::Tlc, "TLC"), (CellType::Qlc, "QLC")];

/// What the form shows for a drive: one text per input of [`INPUTS`].
pub fn texts_of(d: &DriveSku) -> Vec<String> {
    let num = |v: Option<f64>| v.map(|v| v.to_string()).unwrap_or_default();
    let s = |v: &Option<String>| v.clone().unwrap_or_default();
    let r = &d.rated;
    let cell = CELLS.iter().find(|(c, _)| Some(*c) == d.nand.cell).map(|(_, l)| l.to_string());
    vec![
        d.vendor.clone(),
        d.model.clone(),
        d.capacity_gb.to_string(),
        s(&d.part_number),
        d.interface.map(|l| l.id()).unwrap_or_default(),
        d.form_factor.map(|f| f.id().to_string()).unwrap_or_default(),
        s(&d.controller.vendor),
        s(&d.controller.model),
        s(&d.controller.stepping),
        s(&d.nand.vendor),
        d.nand.process_nm.map(|n| n.to_string()).unwrap_or_default(),
        cell.unwrap_or_default(),
        s(&d.nand.interface),
        s(&d.nand.source),
        d.dram_mb.map(|n| n.to_string()).unwrap_or_default(),
        d.firmware.join(", "),
        num(r.seq_read_mbps),
        s(&r.seq_read_source),
        num(r.seq_write_mbps),
        s(&r.seq_write_source),
        num(r.rnd4k_read_iops),
        s(&r.rnd4k_read_source),
        num(r.rnd4k_write_iops),
        s(&r.rnd4k_write_source),
        d.aliases.join(", "),
        String::new(),
    ]
}

/// The input a problem's pointer names (`rated/seq_read_source`, `firmware/2`,
/// `controller.model` as a JSON type error names it), if any.
pub fn input_of(pointer: &str) -> Option<usize> {
    let p = pointer.trim_start_matches('/').replace('.', "/");
    let p = match p.rsplit_once('/') {
        Some((head, n)) if n.parse::<usize>().is_ok() => head.to_string(),
        _ => p,
    };
    INPUTS.iter().position(|i| i.at == p)
}

/// The proposal the form says against `base` (the drive as it is; `None` for a new
/// drive): only what differs, as a patch. Or what cannot be read, at its input.
pub fn proposal(texts: &[String], base: Option<&DriveSku>) -> Result<DriveProposal, Vec<ErrorItem>> {
    let was = base.map(texts_of).unwrap_or_else(|| vec![String::new(); INPUTS.len()]);
    let mut errors = Vec::new();
    let text = |i: usize| Some(texts[i].trim().to_string()).filter(|t| !t.is_empty());
    let changed = |i: usize| texts[i].trim() != was[i].trim();
    let mut problem = |i: usize, detail: String| {
        errors.push(ErrorItem { detail, pointer: Some(INPUTS[i].at.to_string()) });
    };
    // A number typed at input `i`, when it changed.
    let mut number = |i: usize| -> Option<f64> {
        let t = text(i).filter(|_| changed(i))?.replace([',', ' ', '_'], "");
        let v = t.parse::<f64>().ok().filter(|v| v.is_finite() && *v >= 0.0);
        if v.is_none() {
            problem(i, format!("{t:?} is not a number"));
        }
        v
    };
    let whole =
        |v: Option<f64>| v.filter(|v| v.fract() == 0.0 && *v <= f64::from(u32::MAX)).map(|v| v as u32);
    let (capacity, process, dram) = (number(2), number(10), number(14));
    let rated: Vec<Option<f64>> = [16, 18, 20, 22].into_iter().map(&mut number).collect();
    for (i, v) in [(2, capacity), (10, process), (14, dram)] {
        if v.is_some() && whole(v).is_none() {
            problem(i, "a whole number, please".into());
        }
    }
    let interface = match text(4).filter(|_| changed(4)).map(|t| Link::from_id(&t)) {
        Some(Err(e)) => {
            problem(4, e);
            None
        }
        other => other.and_then(Result::ok),
    };
    let list = |i: usize, known: &[String]| -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for t in texts[i].split(',').map(str::trim).filter(|t| !t.is_empty()) {
            if !known.iter().any(|k| k == t) && !out.iter().any(|o| o == t) {
                out.push(t.to_string());
            }
        }
        out
    };
    let (known_firmware, known_aliases) =
        base.map_or((Vec::new(), Vec::new()), |d| (d.firmware.clone(), d.aliases.clone()));
    let mut r = RatedSpec::default();
    {
        let slots = [
            (&mut r.seq_read_mbps, &mut r.seq_read_source),
            (&mut r.seq_write_mbps, &mut r.seq_write_source),
            (&mut r.rnd4k_read_iops, &mut r.rnd4k_read_source),
            (&mut r.rnd4k_write_iops, &mut r.rnd4k_write_source),
        ];
        for ((value, source), (k, v)) in slots.into_iter().zip([16, 18, 20, 22].into_iter().zip(rated)) {
            // A figure or its source changed: both go, so that the server checks the pair.
            if changed(k) || changed(k + 1) {
                *value = v.or_else(|| text(k).and_then(|t| t.parse().ok()));
                *source = text(k + 1);
            }
        }
    }
    let p = DriveProposal {
        drive_id: base.map(|d| d.id.clone()),
        vendor: text(0).filter(|_| changed(0)),
        model: text(1).filter(|_| changed(1)),
        capacity_gb: whole(capacity),
        part_number: text(3).filter(|_| changed(3)),
        interface,
        form_factor: text(5).filter(|_| changed(5)).and_then(|t| FormFactor::from_id(&t)),
        controller: (6..9).any(changed).then(|| ControllerTag {
            vendor: text(6),
            model: text(7),
            stepping: text(8),
        }),
        nand: (9..14).any(changed).then(|| NandTag {
            vendor: text(9),
            process_nm: whole(process).or_else(|| text(10).and_then(|t| t.parse().ok())),
            cell: text(11).and_then(|t| CELLS.iter().find(|(_, l)| *l == t).map(|(c, _)| *c)),
            interface: text(12),
            source: text(13),
        }),
        dram_mb: whole(dram),
        firmware: list(15, &known_firmware),
        rated: (r != RatedSpec::default()).then_some(r),
        aliases: list(24, &known_aliases),
        comment: text(25),
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    if base.is_some()
        && p == (DriveProposal {
            drive_id: p.drive_id.clone(),
            comment: p.comment.clone(),
            ..Default::default()
        })
    {
        return Err(vec![ErrorItem {
            detail: "nothing differs from the drive as it is: change a field first".into(),
            pointer: None,
        }]);
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drive() -> DriveSku {
        DriveProposal {
            vendor: Some("Crucial".into()),
            model: Some("P2".into()),
            capacity_gb: Some(500),
            firmware: vec!["P2CR010".into()],
            ..Default::default()
        }
        .apply(None)
    }

    fn set(texts: &mut [String], at: &str, v: &str) {
        texts[INPUTS.iter().position(|i| i.at == at).unwrap()] = v.into();
    }

    #[test]
    fn only_what_differs_is_proposed() {
        let d = drive();
        let mut t = texts_of(&d);
        assert!(proposal(&t, Some(&d)).is_err(), "nothing changed");
        set(&mut t, "rated/seq_read_mbps", "2,300");
        set(&mut t, "firmware", "P2CR010, P2CR012");
        set(&mut t, "form_factor", "m.2-2280");
        let p = proposal(&t, Some(&d)).unwrap();
        assert_eq!(p.drive_id.as_deref(), Some(d.id.as_str()));
        assert_eq!((p.vendor, p.capacity_gb), (None, None));
        let r = p.rated.unwrap();
        assert_eq!(
            (r.seq_read_mbps, r.seq_read_source),
            (Some(2300.0), None),
            "the server refuses it at its source"
        );
        assert_eq!(p.firmware, ["P2CR012"]);
        assert_eq!(p.form_factor, Some(FormFactor::M2_2280));
        assert_eq!(p.controller, None);
        set(&mut t, "capacity_gb", "five hundred");
        let e = proposal(&t, Some(&d)).unwrap_err();
        assert_eq!(e[0].pointer.as_deref(), Some("capacity_gb"));
    }

    #[test]
    fn the_answers_read_as_the_forms_views() {
        let d = drive();
        let page =
            serde_json::json!({"drive": d, "results": [], "platforms": [], "firmware": [], "tests": []});
        assert_eq!(serde_json::from_value::<DriveOnly>(page).unwrap().drive, d);
        let p = api_types::Proposal {
            id: 7,
            url: "/api/v1/proposals/7".into(),
            status: api_types::ProposalStatus::Open,
            proposal: DriveProposal::default(),
            warnings: vec!["over the line rate".into()],
            created_at: 1,
            decided_at: None,
            reason: None,
        };
        let stored: Stored = serde_json::from_value(serde_json::to_value(&p).unwrap()).unwrap();
        assert_eq!(stored, Stored { id: 7, warnings: p.warnings });
    }

    #[test]
    fn problems_find_their_input() {
        assert_eq!(input_of("rated/seq_read_source").map(|i| INPUTS[i].at), Some("rated/seq_read_source"));
        assert_eq!(input_of("firmware/2").map(|i| INPUTS[i].at), Some("firmware"));
        assert_eq!(input_of("controller.model").map(|i| INPUTS[i].at), Some("controller/model"));
        assert_eq!(input_of("drive_id"), None);
        assert_eq!(texts_of(&drive()).len(), INPUTS.len());
    }
}
