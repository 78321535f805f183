import SwitchyardCore

/// The operator's views: review queues, readiness and gauges, and the payment search across tenants, over
/// the shared ``PostgresDatabase``.
public struct PostgresOperators: ReviewRepository, OperationalProbes, PaymentSearchRepository, PostgresRepository {
    let database: PostgresDatabase
}
