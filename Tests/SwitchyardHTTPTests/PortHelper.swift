import SwitchyardStore

enum SwitchyardStoreClusterPort {
    static func free() -> Int { PostgresCluster.freePort() }
}
