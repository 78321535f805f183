import Foundation
import SwitchyardCore

/// A guarded rollout's state and curves over time, read for the API and the console.
extension PostgresRouting {
    public func rolloutHistory(tenant: UUID, _ selection: RolloutSelection, buckets: Int, now: Date) async throws
        -> RolloutHistory?
    {
        try await tenantScoped(tenant) { c in
            let condition: String
            var parameters: [PGValue] = [.uuid(tenant)]
            switch selection {
            case .current: condition = "TRUE"
            case .running: condition = "r.status = 'running'"
            case .lastEnded: condition = "r.status <> 'running'"
            case .id(let id):
                condition = "r.id = $2::uuid"
                parameters.append(.uuid(id))
            }
            guard
                let row = try await c.query(
                    """
                    SELECT r.*, v.rules FROM routing_rollouts r
                    JOIN routing_versions v ON v.tenant_id = r.tenant_id AND v.version = r.draft_version
                    WHERE r.tenant_id = $1::uuid AND \(condition)
                    ORDER BY (r.status = 'running') DESC, r.started_at DESC, r.id LIMIT 1
                    """, parameters
                ).first
            else { return nil }
            let rollout = try Self.rollout(row)
            let status = RolloutStatus(rawValue: try row.string("status")) ?? .stopped
            let endedAt = row.optionalDate("ended_at")
            let end = endedAt ?? now
            // An ended rollout shows the figures that decided it; a running one its figures now.
            let figures: RolloutDecision.Figures
            if let stored = try row.optionalString("figures").map({
                try StoreJSON.decode(RolloutDecision.Figures.self, $0)
            }) {
                figures = stored
            } else {
                figures = try await Self.decision(c, tenant: tenant, rollout: rollout, now: end).figures
            }
            let width = RolloutSeries.bucketSeconds(elapsed: end.timeIntervalSince(rollout.startedAt), buckets: buckets)
            let counts = try await c.query(
                """
                SELECT arm, floor(extract(epoch FROM decided_at - $3::timestamptz) / $4::bigint)::bigint AS bucket,
                    count(*) AS samples, count(*) FILTER (WHERE approved) AS approved
                FROM routing_outcomes
                WHERE tenant_id = $1::uuid AND rollout_id = $2::uuid AND arm IS NOT NULL
                    AND decided_at <= $5::timestamptz
                GROUP BY arm, bucket
                """,
                [.uuid(tenant), .uuid(rollout.id), .timestamp(rollout.startedAt), .int(Int64(width)), .timestamp(end)]
            ).rows.compactMap { row -> RolloutSeries.Count? in
                guard let arm = RolloutArm(rawValue: try row.string("arm")) else { return nil }
                return RolloutSeries.Count(
                    bucket: Int(clamping: try row.int64("bucket")), arm: arm, samples: Int(try row.int64("samples")),
                    approved: Int(try row.int64("approved")))
            }
            let series = RolloutSeries(
                settings: rollout.settings, startedAt: rollout.startedAt, end: end, bucketSeconds: width,
                counts: counts)
            return RolloutHistory(
                rollout: rollout, status: status, reason: row.optionalString("reason"), figures: figures,
                endedAt: endedAt, series: series)
        }
    }
}
