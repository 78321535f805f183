/// The SQL of the dispute migrations, which ``Schema/migrations`` lists in order.
enum DisputeMigrations {
    /// One row per dispute of an account (its provider's id unique there), a payment's `amount_disputed`
    /// (what disputes took and still hold; never more than the payment), the smallest reminder horizon sent
    /// (`reminded_hours`), what Switchyard did with the merchant's last answer (`merchant_response`), the
    /// evidence documents staged and submitted (`dispute_evidence`), and the index the evidence reminders and due-date filters read.
    static var disputes: String {
        """
        CREATE TABLE disputes (
            id text PRIMARY KEY,
            tenant_id uuid NOT NULL REFERENCES tenants(id),
            account_id uuid NOT NULL REFERENCES provider_accounts(id),
            payment_id text REFERENCES payments(id),
            provider_dispute_id text NOT NULL,
            amount bigint NOT NULL CHECK (amount >= 0),
            currency text NOT NULL,
            stage text NOT NULL,
            status text NOT NULL,
            provider_status text,
            reason text NOT NULL,
            reason_code text,
            evidence_due_by timestamptz,
            submission_count integer NOT NULL DEFAULT 0,
            funds text NOT NULL,
            counts_on_payment boolean NOT NULL,
            review text,
            reminded_hours integer,
            merchant_response jsonb,
            livemode boolean NOT NULL DEFAULT false,
            created_at timestamptz NOT NULL,
            updated_at timestamptz NOT NULL,
            UNIQUE (account_id, provider_dispute_id)
        );
        CREATE TABLE dispute_evidence (
            id text PRIMARY KEY,
            tenant_id uuid NOT NULL REFERENCES tenants(id),
            dispute_id text NOT NULL REFERENCES disputes(id),
            type text NOT NULL,
            name text NOT NULL,
            data bytea NOT NULL,
            created_at timestamptz NOT NULL,
            submitted_at timestamptz
        );
        CREATE INDEX dispute_evidence_dispute ON dispute_evidence (dispute_id, created_at);
        CREATE INDEX disputes_tenant ON disputes (tenant_id, created_at DESC, id DESC);
        CREATE INDEX disputes_payment ON disputes (payment_id) WHERE payment_id IS NOT NULL;
        CREATE INDEX disputes_waiting ON disputes (evidence_due_by)
            WHERE status IN ('needs_response', 'warning_needs_response');
        ALTER TABLE payments ADD COLUMN amount_disputed bigint NOT NULL DEFAULT 0
            CHECK (amount_disputed >= 0 AND amount_disputed <= amount);
        \(Schema.tenantIsolation("disputes"))
        \(Schema.tenantIsolation("dispute_evidence"))
        """
    }

    /// The ledger of funds movements after payment: one row per dispute withdrawal or reinstatement,
    /// append-only (the application role may insert and read, never change or delete).
    static var ledger: String {
        """
        CREATE TABLE ledger_entries (
            id text PRIMARY KEY,
            tenant_id uuid NOT NULL REFERENCES tenants(id),
            account_id uuid NOT NULL REFERENCES provider_accounts(id),
            payment_id text REFERENCES payments(id),
            source text NOT NULL,
            type text NOT NULL,
            amount bigint NOT NULL,
            currency text NOT NULL,
            livemode boolean NOT NULL DEFAULT false,
            created_at timestamptz NOT NULL
        );
        CREATE INDEX ledger_entries_tenant ON ledger_entries (tenant_id, created_at DESC, id DESC);
        CREATE INDEX ledger_entries_payment ON ledger_entries (payment_id) WHERE payment_id IS NOT NULL;
        CREATE INDEX ledger_entries_source ON ledger_entries (source);
        \(Schema.tenantIsolation("ledger_entries"))
        REVOKE UPDATE, DELETE ON ledger_entries FROM \(Schema.tenantRole);
        """
    }
}
