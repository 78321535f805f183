import SwitchyardCore

extension PostgresStore: ReviewRepository, OperationalProbes {}
