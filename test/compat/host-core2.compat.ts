// The SDK clients (the official v2 client in both eras, the v1 SDK) over stdio and `mcp serve` against the fixture
// host on its own @oclif/core 2 and Node 20. The plugin is linked in as a user plugin and loads its own @oclif/core
// 4 from this repository's node_modules, as a plugin with its own core does inside an older host.
import {describeSdkClients, FIXTURE2} from './cells.js'
import {HOST2, VERSIONS} from './hosts.js'

describeSdkClients(`host-core2 (@oclif/core ${VERSIONS.core2}, Node 20)`, HOST2, FIXTURE2)
