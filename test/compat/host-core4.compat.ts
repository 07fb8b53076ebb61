// The SDK clients (the official v2 client in both eras, the v1 SDK) over stdio and `mcp serve` against the fixture
// host on the repository's own @oclif/core 4 and Node 20, which lists the plugin in `oclif.plugins`.
import {describeSdkClients, FIXTURE4} from './cells.js'
import {HOST4, VERSIONS} from './hosts.js'

describeSdkClients(`host-core4 (@oclif/core ${VERSIONS.core4}, Node 20)`, HOST4, FIXTURE4)
