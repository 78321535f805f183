import SwitchyardCore

extension PostgresStore: RoutingRepository {}
