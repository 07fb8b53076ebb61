// The SDK clients (the official v2 client in both eras, the v1 SDK) over stdio and `mcp serve` against the fixture
// host on its own @oclif/core 3 and Node 20. The plugin is linked in as a user plugin and loads its own @oclif/core
// 4 from this repository's node_modules, as a plugin with its own core does inside an older host.
import {describeSdkClients, FIXTURE3} from './cells.js'
import {HOST3, VERSIONS} from './hosts.js'

describeSdkClients(`host-core3 (@oclif/core ${VERSIONS.core3}, Node 20)`, HOST3, FIXTURE3)
