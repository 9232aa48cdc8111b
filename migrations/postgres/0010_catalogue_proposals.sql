-- Catalogue contributions (api_types::catalogue): proposals of a new drive or of a change
-- to one, which change nothing until a moderator accepts them, and the history of every
-- change the catalogue went through (accepted proposals, merges).

CREATE TABLE drive_proposals (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    drive_id   TEXT,                        -- the drive it changes; NULL: a new drive
    body       TEXT NOT NULL,               -- api_types::DriveProposal as JSON
    warnings   TEXT NOT NULL,               -- JSON array of what to check before accepting
    status     TEXT NOT NULL DEFAULT 'open', -- open | accepted | rejected
    client     TEXT,
    created_at BIGINT NOT NULL,
    decided_at BIGINT,
    reason     TEXT
);
CREATE INDEX drive_proposals_by_status ON drive_proposals (status, id);

-- No foreign key on drive_id: a merged drive is gone, its history stays.
CREATE TABLE catalogue_changes (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    drive_id    TEXT NOT NULL,
    action      TEXT NOT NULL,              -- create | change | merge
    proposal_id BIGINT REFERENCES drive_proposals (id),
    merged_into TEXT,
    before      TEXT,                       -- bench::DriveSku as JSON, NULL for a create
    after       TEXT,                       -- bench::DriveSku as JSON, of merged_into for a merge
    sources     TEXT NOT NULL,              -- JSON array of the rated figures' sources
    reason      TEXT,
    at          BIGINT NOT NULL
);
CREATE INDEX catalogue_changes_by_drive ON catalogue_changes (drive_id, id);
