//! Catalogue contributions: a proposal of a new drive or of a change to one (anyone may
//! send it), a moderator's decision, the catalogue's history and drive merges.
//!
//! A proposal is a patch, not a whole drive: only what it names changes, so two
//! proposals for the same drive, sent at the same time, can both be reviewed and both
//! accepted without the second undoing the first.

use crate::ErrorItem;
use bench::identity::{Identity, Junk};
use bench::{ControllerTag, DriveSku, DriveTag, FormFactor, Link, NandTag, RatedSpec};
use serde::{Deserialize, Serialize};

/// Longest source (a URL or a document's name) and comment accepted, in characters.
pub const MAX_SOURCE_LEN: usize = 500;

/// Most firmware versions one proposal may add.
pub const MAX_FIRMWARE: usize = 50;

/// `POST /api/v1/proposals`: a new drive (no `drive_id`) or a change to drive
/// `drive_id`. Every field left out stays as the drive has it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct DriveProposal {
    /// The drive to change; absent for a new drive.
    pub drive_id: Option<String>,
    pub vendor: Option<String>,
    /// The model line, e.g. `P2`.
    pub model: Option<String>,
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1000000))]
    pub capacity_gb: Option<u32>,
    pub part_number: Option<String>,
    /// The drive's own interface.
    pub interface: Option<Link>,
    /// Controller with its stepping.
    pub controller: Option<ControllerTag>,
    /// NAND vendor, node, cell type and interface.
    pub nand: Option<NandTag>,
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 1048576))]
    pub dram_mb: Option<u32>,
    /// What slot or bay it fits; replaces the drive's.
    pub form_factor: Option<FormFactor>,
    /// Firmware versions to add to the drive's known ones (a version it has is not added
    /// twice).
    #[cfg_attr(feature = "openapi", schema(max_items = 50))]
    pub firmware: Vec<String>,
    /// Rated figures: each one given replaces the drive's, and must carry its source
    /// (`seq_read_source` for `seq_read_mbps`, ...).
    pub rated: Option<RatedSpec>,
    /// Names to add to the drive's aliases (model strings, part numbers, OEM names).
    pub aliases: Vec<String>,
    /// What the proposer wants the moderator to know.
    pub comment: Option<String>,
}

/// Where a proposal stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum ProposalStatus {
    Open,
    Accepted,
    Rejected,
}

/// A stored proposal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Proposal {
    pub id: i64,
    pub url: String,
    pub status: ProposalStatus,
    pub proposal: DriveProposal,
    /// What a moderator should look at before accepting: a rated figure no interface
    /// could deliver, ...
    pub warnings: Vec<String>,
    pub created_at: i64,
    pub decided_at: Option<i64>,
    /// The moderator's reason, when decided.
    pub reason: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ProposalList {
    pub proposals: Vec<Proposal>,
}

/// `POST /api/v1/proposals/{id}/accept|reject`: the moderator's reason.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct DecisionBody {
    pub reason: Option<String>,
}

/// What a catalogue change did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum ChangeAction {
    /// A new drive entered the catalogue (an accepted proposal).
    Create,
    /// A drive's facts changed (an accepted proposal).
    Change,
    /// A drive was merged into another (`merged_into`), its results and names moved.
    Merge,
}

/// One entry of the catalogue's history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CatalogueChange {
    pub id: i64,
    pub drive_id: String,
    pub action: ChangeAction,
    /// The proposal accepted, for a create or a change.
    pub proposal_id: Option<i64>,
    /// For a merge, the drive that took over.
    pub merged_into: Option<String>,
    /// The drive before and after.
    pub before: Option<DriveSku>,
    pub after: Option<DriveSku>,
    /// The sources of the rated figures it set.
    pub sources: Vec<String>,
    /// The moderator's reason.
    pub reason: Option<String>,
    pub at: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CatalogueHistory {
    pub changes: Vec<CatalogueChange>,
}

/// `GET /api/v1/catalogue/duplicates`: drives the identity rules say are one drive.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DuplicateList {
    pub groups: Vec<DuplicateGroup>,
}

/// Drives known under one line and capacity (or one vendor, model and capacity).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DuplicateGroup {
    /// The identity keys they share (`l:CRUCIAL|C300|256`).
    pub keys: Vec<String>,
    /// The drives with their visible result counts, reviewed first, then most results.
    pub drives: Vec<crate::DriveListItem>,
    /// The drive the others merge into when the group is certain (at most one reviewed
    /// drive); none when two reviewed drives are a moderator's to judge.
    pub into: Option<String>,
}

/// `POST /api/v1/drives/{id}/merge`: the drive that takes over this one's results and
/// names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct MergeBody {
    pub into: String,
    pub reason: Option<String>,
}

/// What a merge moved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MergeResponse {
    pub into: String,
    pub url: String,
    /// Results (visible and hidden) that now belong to `into`.
    pub moved_results: i64,
}

impl DriveProposal {
    /// What is wrong with the proposal, each with where: text that cannot name a drive,
    /// a new drive without vendor, model and capacity, a rated figure without its
    /// source, a source or comment too long.
    pub fn problems(&self) -> Vec<ErrorItem> {
        let mut out = Vec::new();
        let item = |detail: String, at: &str| ErrorItem { detail, pointer: Some(at.to_string()) };
        let tag = DriveTag {
            vendor: self.vendor.clone(),
            model: self.model.clone(),
            part_number: self.part_number.clone(),
            ..DriveTag::default()
        };
        if let Err(Junk { field, detail }) = Identity::from_tag(&tag) {
            out.push(item(format!("the drive's {} {detail}", field.replace('_', " ")), field));
        }
        for (i, alias) in self.aliases.iter().enumerate() {
            let tag = DriveTag { model: Some(alias.clone()), ..DriveTag::default() };
            match Identity::from_tag(&tag) {
                Err(Junk { detail, .. }) => {
                    out.push(item(format!("alias {detail}"), &format!("aliases/{i}")))
                }
                Ok(None) => out.push(item("an alias may not be empty".into(), &format!("aliases/{i}"))),
                Ok(Some(_)) => {}
            }
        }
        // The other free text: controller, NAND, firmware versions.
        let text = |field: &'static str, s: Option<&str>, at: &str| {
            bench::identity::checked(field, s)
                .err()
                .map(|Junk { detail, .. }| item(format!("{field} {detail}"), at))
        };
        if let Some(c) = &self.controller {
            out.extend(text("controller vendor", c.vendor.as_deref(), "controller/vendor"));
            out.extend(text("controller model", c.model.as_deref(), "controller/model"));
            out.extend(text("controller stepping", c.stepping.as_deref(), "controller/stepping"));
        }
        if let Some(n) = &self.nand {
            out.extend(text("NAND vendor", n.vendor.as_deref(), "nand/vendor"));
            out.extend(text("NAND interface", n.interface.as_deref(), "nand/interface"));
        }
        if let Some(source) = self.nand.as_ref().and_then(|n| n.source.as_ref()) {
            if source.chars().count() > MAX_SOURCE_LEN {
                out.push(item(format!("longer than {MAX_SOURCE_LEN} characters"), "nand/source"));
            }
        }
        for (i, f) in self.firmware.iter().enumerate() {
            if f.trim().is_empty() {
                out.push(item("a firmware version may not be empty".into(), &format!("firmware/{i}")));
            } else {
                out.extend(text("firmware version", Some(f), &format!("firmware/{i}")));
            }
        }
        if self.firmware.len() > MAX_FIRMWARE {
            out.push(item(format!("more than {MAX_FIRMWARE} firmware versions"), "firmware"));
        }
        let blank = |s: &Option<String>| s.as_deref().is_none_or(|s| s.trim().is_empty());
        if self.drive_id.is_none() {
            for (missing, at) in [(blank(&self.vendor), "vendor"), (blank(&self.model), "model")] {
                if missing {
                    out.push(item(format!("a new drive needs its {at}"), at));
                }
            }
            if self.capacity_gb.is_none() {
                out.push(item("a new drive needs its capacity".into(), "capacity_gb"));
            }
        }
        if self.capacity_gb == Some(0) {
            out.push(item("capacity must be at least 1 GB".into(), "capacity_gb"));
        }
        if self.capacity_gb.is_some_and(|gb| gb > 1_000_000) {
            out.push(item("capacity above 1,000,000 GB".into(), "capacity_gb"));
        }
        if let Some(rated) = &self.rated {
            for (name, value, source) in rated.figures() {
                let at = format!("rated/{}", name.replace("_mbps", "_source").replace("_iops", "_source"));
                match (value, source.map(str::trim)) {
                    (Some(v), _) if !(v.is_finite() && v > 0.0) => {
                        out.push(item(format!("{name} must be a positive number"), &format!("rated/{name}")))
                    }
                    (Some(_), None | Some("")) => {
                        out.push(item(format!("{name} needs its source: a URL or a document's name"), &at))
                    }
                    (None, Some(_)) => out.push(item(format!("a source without {name}"), &at)),
                    _ => {}
                }
                if source.is_some_and(|s| s.chars().count() > MAX_SOURCE_LEN) {
                    out.push(item(format!("longer than {MAX_SOURCE_LEN} characters"), &at));
                }
            }
            if rated.figures().iter().all(|(_, v, _)| v.is_none()) {
                out.push(item("rated names no figure".into(), "rated"));
            }
        }
        if self.comment.as_ref().is_some_and(|c| c.chars().count() > MAX_SOURCE_LEN) {
            out.push(item(format!("longer than {MAX_SOURCE_LEN} characters"), "comment"));
        }
        out
    }

    /// The drive as it reads with this proposal applied to `base` (the drive changed;
    /// `None` for a new drive, which `problems` made sure has vendor, model and
    /// capacity). A new drive's id comes from its name.
    pub fn apply(&self, base: Option<&DriveSku>) -> DriveSku {
        let mut d = base.cloned().unwrap_or_else(|| DriveSku {
            id: String::new(),
            vendor: String::new(),
            model: String::new(),
            part_number: None,
            capacity_gb: 0,
            interface: None,
            controller: ControllerTag::default(),
            nand: NandTag::default(),
            dram_mb: None,
            form_factor: None,
            firmware: Vec::new(),
            rated: RatedSpec::default(),
            aliases: Vec::new(),
            reviewed: true,
        });
        let text =
            |s: &Option<String>| s.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
        if let Some(v) = text(&self.vendor) {
            d.vendor = v;
        }
        if let Some(m) = text(&self.model) {
            d.model = m;
        }
        if let Some(gb) = self.capacity_gb {
            d.capacity_gb = gb;
        }
        if let Some(p) = text(&self.part_number) {
            d.part_number = Some(p);
        }
        if self.interface.is_some() {
            d.interface = self.interface;
        }
        if let Some(c) = &self.controller {
            d.controller = c.clone();
        }
        if let Some(n) = &self.nand {
            d.nand = n.clone();
        }
        if self.dram_mb.is_some() {
            d.dram_mb = self.dram_mb;
        }
        if self.form_factor.is_some() {
            d.form_factor = self.form_factor;
        }
        for f in &self.firmware {
            let f = f.trim().to_string();
            if !d.firmware.contains(&f) {
                d.firmware.push(f);
            }
        }
        if let Some(r) = &self.rated {
            let to = &mut d.rated;
            let take =
                |v: Option<f64>, s: &Option<String>, value: &mut Option<f64>, source: &mut Option<String>| {
                    if v.is_some() {
                        *value = v;
                        *source = s.as_deref().map(str::trim).map(str::to_string);
                    }
                };
            take(r.seq_read_mbps, &r.seq_read_source, &mut to.seq_read_mbps, &mut to.seq_read_source);
            take(r.seq_write_mbps, &r.seq_write_source, &mut to.seq_write_mbps, &mut to.seq_write_source);
            take(r.rnd4k_read_iops, &r.rnd4k_read_source, &mut to.rnd4k_read_iops, &mut to.rnd4k_read_source);
            take(
                r.rnd4k_write_iops,
                &r.rnd4k_write_source,
                &mut to.rnd4k_write_iops,
                &mut to.rnd4k_write_source,
            );
        }
        for a in &self.aliases {
            let a = a.trim().to_string();
            if !d.aliases.contains(&a) {
                d.aliases.push(a);
            }
        }
        if base.is_none() {
            d.id = bench::identity::slug(&format!("{} {} {}gb", d.vendor, d.model, d.capacity_gb));
        }
        // A moderator accepting it is the review.
        d.reviewed = true;
        d
    }

    /// What a moderator should check before accepting `drive` (this proposal applied):
    /// a rated sequential figure above what the drive's own interface can carry at all.
    pub fn warnings(&self, drive: &DriveSku) -> Vec<String> {
        let (Some(rated), Some(link)) = (&self.rated, drive.interface) else { return Vec::new() };
        let limit = link.line_rate_mbps();
        [("sequential read", rated.seq_read_mbps), ("sequential write", rated.seq_write_mbps)]
            .into_iter()
            .filter_map(|(what, v)| {
                let v = v.filter(|v| *v > limit)?;
                Some(format!(
                    "rated {what} {v} MB/s is above the {limit:.0} MB/s line rate of the drive's interface ({})",
                    link.id()
                ))
            })
            .collect()
    }

    /// The sources of the rated figures it sets.
    pub fn sources(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .rated
            .iter()
            .flat_map(|r| r.figures())
            .filter(|(_, v, _)| v.is_some())
            .filter_map(|(_, _, s)| s.map(|s| s.trim().to_string()))
            .collect();
        out.sort();
        out.dedup();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rated(read: f64, source: Option<&str>) -> RatedSpec {
        RatedSpec {
            seq_read_mbps: Some(read),
            seq_read_source: source.map(Into::into),
            ..RatedSpec::default()
        }
    }

    #[test]
    fn a_rated_figure_without_a_source_is_refused() {
        let p = DriveProposal {
            drive_id: Some("x".into()),
            rated: Some(rated(3500.0, None)),
            ..Default::default()
        };
        let problems = p.problems();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].pointer.as_deref(), Some("rated/seq_read_source"));
        let p = DriveProposal {
            rated: Some(rated(3500.0, Some("https://example.com/p2.pdf"))),
            drive_id: Some("x".into()),
            ..Default::default()
        };
        assert!(p.problems().is_empty());
    }

    #[test]
    fn a_new_drive_needs_its_name_and_capacity() {
        let pointers: Vec<Option<String>> =
            DriveProposal::default().problems().into_iter().map(|e| e.pointer).collect();
        assert_eq!(pointers, [Some("vendor".into()), Some("model".into()), Some("capacity_gb".into())]);
    }

    #[test]
    fn applying_changes_only_what_is_named() {
        let base = DriveProposal {
            vendor: Some("Crucial".into()),
            model: Some("P2".into()),
            capacity_gb: Some(500),
            ..Default::default()
        }
        .apply(None);
        assert_eq!(base.id, "crucial-p2-500gb");
        let first = DriveProposal {
            drive_id: Some(base.id.clone()),
            rated: Some(rated(2300.0, Some("Crucial P2 product flyer"))),
            ..Default::default()
        };
        let second = DriveProposal {
            drive_id: Some(base.id.clone()),
            aliases: vec!["CT500P2SSD8".into()],
            ..Default::default()
        };
        // Accepted one after the other, in either order, both changes stay.
        for d in
            [second.apply(Some(&first.apply(Some(&base)))), first.apply(Some(&second.apply(Some(&base))))]
        {
            assert_eq!(d.rated.seq_read_mbps, Some(2300.0));
            assert_eq!(d.rated.seq_read_source.as_deref(), Some("Crucial P2 product flyer"));
            assert_eq!(d.aliases, ["CT500P2SSD8"]);
            assert_eq!((d.vendor.as_str(), d.capacity_gb), ("Crucial", 500));
        }
    }

    #[test]
    fn form_factor_is_replaced_and_firmware_versions_added_once() {
        let base = DriveProposal {
            vendor: Some("Crucial".into()),
            model: Some("P2".into()),
            capacity_gb: Some(500),
            form_factor: Some(FormFactor::Inch2_5),
            firmware: vec!["P2CR010".into()],
            ..Default::default()
        }
        .apply(None);
        let p = DriveProposal {
            drive_id: Some(base.id.clone()),
            form_factor: Some(FormFactor::M2_2280),
            firmware: vec![" P2CR010 ".into(), "P2CR012".into(), "P2CR012".into()],
            ..Default::default()
        };
        assert!(p.problems().is_empty(), "{:?}", p.problems());
        let d = p.apply(Some(&base));
        assert_eq!(d.form_factor, Some(FormFactor::M2_2280));
        assert_eq!(d.firmware, ["P2CR010", "P2CR012"]);
        // Left out, they stay as the drive has them.
        let d = DriveProposal { drive_id: Some(d.id.clone()), ..Default::default() }.apply(Some(&d));
        assert_eq!((d.form_factor, d.firmware.len()), (Some(FormFactor::M2_2280), 2));
        // The JSON names, both ways.
        let json = serde_json::to_value(&d).unwrap();
        assert_eq!(
            (json["form_factor"].as_str(), json["firmware"][1].as_str()),
            (Some("m.2-2280"), Some("P2CR012"))
        );
        for (f, id, _) in FormFactor::ALL {
            assert_eq!(serde_json::to_value(f).unwrap(), id);
            assert_eq!(FormFactor::from_id(id), Some(f));
        }
    }

    #[test]
    fn junk_in_controller_nand_or_firmware_is_refused_where_it_is() {
        let p = DriveProposal {
            drive_id: Some("x".into()),
            controller: Some(ControllerTag {
                model: Some("SM2263".into()),
                stepping: Some("\u{7}".into()),
                ..Default::default()
            }),
            nand: Some(NandTag { vendor: Some("x".repeat(101)), ..Default::default() }),
            firmware: vec!["P2CR012".into(), " ".into(), "!!!".into()],
            ..Default::default()
        };
        let pointers: Vec<String> = p.problems().into_iter().filter_map(|e| e.pointer).collect();
        assert_eq!(pointers, ["controller/stepping", "nand/vendor", "firmware/1", "firmware/2"]);
        let p = DriveProposal {
            drive_id: Some("x".into()),
            firmware: vec!["1".into(); 51],
            ..Default::default()
        };
        assert_eq!(p.problems().len(), 1);
    }

    #[test]
    fn a_rating_no_interface_could_deliver_is_warned_about() {
        let mut d = DriveProposal {
            vendor: Some("X".into()),
            model: Some("Y".into()),
            capacity_gb: Some(1000),
            ..Default::default()
        }
        .apply(None);
        d.interface = Some(Link::Sata { gbps: 6.0 });
        let p = DriveProposal { rated: Some(rated(3500.0, Some("flyer"))), ..Default::default() };
        assert_eq!(p.warnings(&d).len(), 1, "3500 MB/s over SATA 6 Gb/s");
        let p = DriveProposal { rated: Some(rated(555.0, Some("flyer"))), ..Default::default() };
        assert!(p.warnings(&d).is_empty(), "555 MB/s fits in SATA's 600");
    }
}
